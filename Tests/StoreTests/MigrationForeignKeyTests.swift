import Foundation
import Store
import StoreContract
import TestSupport
import Testing

/// A migration that rebuilds tables (SQLite 3.15's only way to change a column) keeps every row that refers to
/// them, and one that leaves a dangling reference is refused whole. See `Migrations/README.md`.
@Suite(.sqlcipherOnly) struct MigrationForeignKeyTests {
    /// The next version after the shipped migrations, for test-only migrations.
    private static var nextVersion: Int { (RepositoryRoot.migrator.migrations.last?.version ?? 0) + 1 }

    /// The shipped migrations followed by `sql` as the next one.
    private static func migrator(adding name: String, sql: String) -> (Migrator, Migration) {
        let migration = Migration(version: nextVersion, name: String(format: "%04d", nextVersion) + "_" + name, sql: sql)
        return (Migrator(migrations: RepositoryRoot.migrator.migrations + [migration]), migration)
    }

    /// A migrated database holding two companies with trainers, sessions, clients, photos, screenings, results and
    /// their histories.
    private static func seededDatabase(_ folder: TemporaryDirectory) throws -> SQLiteDatabase {
        let database = try openTestDatabase(folder)
        try database.withWriter { db in try db.transaction { try db.execute(Seed.sql) } }
        return database
    }

    // MARK: - Rebuilding tables

    @Test func rebuildingCompaniesAndClientsKeepsEveryRow() throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let database = try Self.seededDatabase(folder)
        let before = try dumpAllTables(database)
        for table in ["companies", "trainers", "sessions", "clients", "client_photos", "screenings", "results", "result_revisions"] {
            #expect(before[table]?.isEmpty == false, "the seed has no \(table) rows")
        }
        let schemaBefore = try indexesAndTriggers(database)

        let (migrator, rebuild) = Self.migrator(adding: "rebuild_companies_and_clients", sql: Self.rebuildCompaniesAndClients)
        #expect(try migrator.migrate(database) == [rebuild.name])

        let after = try dumpAllTables(database)
        #expect(after.keys.sorted() == before.keys.sorted())
        for table in before.keys.sorted() {
            #expect(after[table] == before[table], "\(table) changed")
        }
        #expect(try indexesAndTriggers(database) == schemaBefore)
        #expect(try tableSQL("companies", database).contains("CHECK (wheel_flag_below BETWEEN 1 AND 10)"))
        #expect(try tableSQL("clients", database).contains("CHECK (height IS NULL OR height > 0)"))
        #expect(try writerForeignKeysAreOn(database))
    }

    @Test func triggersAndForeignKeysWorkAfterTheRebuild() throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let database = try Self.seededDatabase(folder)
        let (migrator, _) = Self.migrator(adding: "rebuild_companies_and_clients", sql: Self.rebuildCompaniesAndClients)
        try migrator.migrate(database)

        let listVersion = { (company: String) throws -> Int in
            try database.readBlocking { try await $0.scalar("SELECT clients_version FROM companies WHERE id = ?", company) }
        }
        let resultsVersion = {
            try database.readBlocking { try await $0.scalar("SELECT version FROM client_results_versions WHERE client_id = ?", Seed.zoe) as Int? }
                ?? 0
        }
        let versionBefore = try listVersion(Seed.peak)
        let resultsVersionBefore = try resultsVersion()

        try database.withWriter { db in
            try db.transaction {
                // A trigger of `clients` (re-created by the migration), one of `screenings` (which refers to both
                // rebuilt tables and survived them) and one of `results` (which refers to `clients`).
                try db.execute(
                    """
                    INSERT INTO clients (id, company_id, given_name, sort_name, created_at, updated_at)
                    VALUES ('c0000000-0000-4000-8000-000000000004', '\(Seed.peak)', 'Mere', 'mere', 1800000900000, 1800000900000);
                    INSERT INTO screenings (id, client_id, questionnaire_id, questionnaire_version, status, answers, flags,
                                            created_at, updated_at)
                    VALUES ('50000000-0000-4000-8000-000000000003', 'c0000000-0000-4000-8000-000000000004', 'screening', 1,
                            'draft', '{}', '[]', 1800000900000, 1800000900000);
                    UPDATE results SET observations = 'Steady' WHERE id = 'e0000000-0000-4000-8000-000000000001';
                    UPDATE clients SET goal = 'Run a 10k' WHERE id = 'c0000000-0000-4000-8000-000000000004';
                    """
                )
            }
        }
        // The insert itself moves nothing (since 0007 the repository does that); the screening and the update do.
        #expect(try listVersion(Seed.peak) == versionBefore + 2)
        #expect(try resultsVersion() == resultsVersionBefore + 1)

        // The rebuilt tables' references are enforced, in both directions.
        #expect(throws: SQLiteError.self) {
            _ = try database.withWriter { db in
                try await db.run(
                    "INSERT INTO trainers (id, company_id, email, name, role, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    "70000000-0000-4000-8000-000000000009",
                    "no-such-company",
                    "ghost@example.com",
                    "Ghost",
                    "trainer",
                    "x",
                    0,
                    0
                )
            }
        }
        #expect(throws: SQLiteError.self) {
            _ = try database.withWriter { db in
                try await db.run(
                    "INSERT INTO clients (id, company_id, sort_name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
                    "c0000000-0000-4000-8000-000000000009",
                    "no-such-company",
                    "ghost",
                    0,
                    0
                )
            }
        }
        // And deleting a company still cascades through the rebuilt clients to their screenings and results.
        _ = try database.withWriter { db in try await db.run("DELETE FROM companies WHERE id = ?", Seed.harbour) }
        let left = try dumpAllTables(database)
        #expect(left["trainers"]?.contains { $0.contains(.text(Seed.harbour)) } == false)
        #expect(left["clients"]?.contains { $0.contains(.text(Seed.harbour)) } == false)
        #expect(left["screenings"]?.contains { $0.contains(.text(Seed.tane)) } == false)
        #expect(left["results"]?.contains { $0.contains(.text(Seed.tane)) } == false)
        #expect(left["clients"]?.count == 3)
    }

    // MARK: - Dangling references

    @Test(arguments: [
        Dangling(
            name: "delete_a_company_with_trainers",
            sql: "DELETE FROM companies WHERE id = '\(Seed.harbour)';",
            table: "trainers",
            detail: "company_id = '\(Seed.harbour)'"
        ),
        Dangling(
            name: "add_a_trainer_of_no_company",
            sql: """
                INSERT INTO trainers (id, company_id, email, name, role, password_hash, created_at, updated_at)
                VALUES ('70000000-0000-4000-8000-000000000009', 'no-such-company', 'ghost@example.com', 'Ghost', 'trainer',
                        'x', 0, 0);
                """,
            table: "trainers",
            detail: "company_id = 'no-such-company'"
        ),
        Dangling(
            name: "drop_clients_without_rebuilding_it",
            sql: "CREATE TABLE new_clients (id TEXT PRIMARY KEY NOT NULL); DROP TABLE clients; ALTER TABLE new_clients RENAME TO clients;",
            table: "screenings",
            detail: "client_id = '\(Seed.zoe)'"
        ),
    ])
    func migrationLeavingADanglingReferenceIsRefusedWhole(_ dangling: Dangling) throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let database = try Self.seededDatabase(folder)
        let before = try dumpAllTables(database)
        let schemaBefore = try schema(database)
        let (migrator, migration) = Self.migrator(adding: dangling.name, sql: dangling.sql)

        let error = #expect(throws: StoreError.self) { try migrator.migrate(database) }
        let message = String(describing: error)
        #expect(error.isMigration, "\(message)")
        #expect(message.contains(migration.name), "\(message)")
        #expect(message.contains("\(dangling.table) row"), "\(message)")
        #expect(message.contains(dangling.detail), "\(message)")
        #expect(message.contains("no such row in \(dangling.parent)"), "\(message)")

        let recorded: Int = try database.readBlocking {
            try await $0.scalar("SELECT count(*) FROM schema_migrations WHERE version = ?", migration.version)
        }
        #expect(recorded == 0)
        #expect(try dumpAllTables(database) == before)
        #expect(try schema(database) == schemaBefore)
        #expect(try writerForeignKeysAreOn(database))
    }

    // MARK: - Foreign keys come back on

    @Test func foreignKeysAreOnAfterMigratingAFreshDatabase() throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let database = try openTestDatabase(folder)
        #expect(try writerForeignKeysAreOn(database))
        #expect(throws: SQLiteError.self) {
            _ = try database.withWriter { db in
                try await db.run("INSERT INTO trainers VALUES ('t', 'no-such-company', 'e@example.com', 'N', 'trainer', 'x', 0, 0)")
            }
        }
    }

    @Test func foreignKeysAreOnAfterAMigrationThatFailsInItsSQL() throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let database = try openTestDatabase(folder)
        let (migrator, _) = Self.migrator(adding: "broken", sql: "DROP TABLE companies; INSERT INTO missing_table VALUES (1);")

        #expect(throws: (any Error).self) { try migrator.migrate(database) }
        #expect(try writerForeignKeysAreOn(database))
        #expect(try tableSQL("companies", database).isEmpty == false)
    }

    // MARK: - The rebuild, as Migrations/README.md describes it

    /// Adds CHECK constraints to `companies` and `clients`: a change ALTER TABLE cannot make, so both are rebuilt.
    /// `companies` has no index or trigger of its own (the triggers of clients, photos and screenings that update it
    /// survive its DROP); `clients` has four indexes (0002) and three triggers (0003), re-created as they were.
    static let rebuildCompaniesAndClients = """
        CREATE TABLE new_companies (
            id TEXT PRIMARY KEY NOT NULL,
            name TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            clients_version INTEGER NOT NULL DEFAULT 0,
            correction_window_seconds INTEGER NOT NULL DEFAULT 60 CHECK (correction_window_seconds >= 0),
            wheel_flag_below REAL NOT NULL DEFAULT 4 CHECK (wheel_flag_below BETWEEN 1 AND 10)
        );
        INSERT INTO new_companies (id, name, created_at, clients_version, correction_window_seconds, wheel_flag_below)
        SELECT id, name, created_at, clients_version, correction_window_seconds, wheel_flag_below FROM companies;
        DROP TABLE companies;
        ALTER TABLE new_companies RENAME TO companies;

        CREATE TABLE new_clients (
            id TEXT PRIMARY KEY NOT NULL,
            company_id TEXT NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
            given_name TEXT,
            family_name TEXT,
            email TEXT,
            phone TEXT,
            birth_date TEXT,
            sex TEXT CHECK (sex IN ('male', 'female')),
            height REAL CHECK (height IS NULL OR height > 0),
            mass REAL CHECK (mass IS NULL OR mass > 0),
            goal TEXT,
            notes TEXT,
            assigned_trainer_id TEXT REFERENCES trainers (id) ON DELETE SET NULL,
            vcard_uid TEXT,
            sort_name TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL
        );
        INSERT INTO new_clients (id, company_id, given_name, family_name, email, phone, birth_date, sex, height, mass, goal,
                                 notes, assigned_trainer_id, vcard_uid, sort_name, created_at, updated_at)
        SELECT id, company_id, given_name, family_name, email, phone, birth_date, sex, height, mass, goal,
               notes, assigned_trainer_id, vcard_uid, sort_name, created_at, updated_at FROM clients;
        DROP TABLE clients;
        ALTER TABLE new_clients RENAME TO clients;

        CREATE INDEX clients_company_sort ON clients (company_id, sort_name, id);
        CREATE INDEX clients_company_uid ON clients (company_id, vcard_uid);
        CREATE INDEX clients_company_email ON clients (company_id, email);
        CREATE INDEX clients_assigned_trainer ON clients (assigned_trainer_id);
        CREATE INDEX clients_company_full_name
            ON clients (company_id, trim(coalesce(given_name, '') || ' ' || coalesce(family_name, '')));

        CREATE TRIGGER clients_version_on_client_update AFTER UPDATE ON clients BEGIN
            UPDATE companies SET clients_version = clients_version + 1 WHERE id IN (OLD.company_id, NEW.company_id);
        END;

        CREATE TRIGGER clients_version_on_client_delete AFTER DELETE ON clients BEGIN
            UPDATE companies SET clients_version = clients_version + 1 WHERE id = OLD.company_id;
        END;
        """

    /// A test-only migration that leaves a row referring to nothing, and what the refusal must name.
    struct Dangling: Sendable, CustomTestStringConvertible {
        let name: String
        let sql: String
        /// The table of the row left dangling, and how its reference is shown.
        let table: String
        let detail: String
        var parent: String { table == "screenings" ? "clients" : "companies" }
        var testDescription: String { name }
    }

    /// Fixed ids, so tests can name rows.
    enum Seed {
        static let peak = "a0000000-0000-4000-8000-000000000001"
        static let harbour = "a0000000-0000-4000-8000-000000000002"
        static let ana = "70000000-0000-4000-8000-000000000001"
        static let ben = "70000000-0000-4000-8000-000000000002"
        static let cat = "70000000-0000-4000-8000-000000000003"
        static let zoe = "c0000000-0000-4000-8000-000000000001"
        static let olivia = "c0000000-0000-4000-8000-000000000002"
        static let tane = "c0000000-0000-4000-8000-000000000003"

        /// Rows in every table, as the repositories write them (lower-case UUIDs, milliseconds, JSON text), with NULLs
        /// and non-default settings where a careless copy would lose them.
        static let sql = """
            INSERT INTO companies (id, name, created_at) VALUES
                ('\(peak)', 'Peak Performance', 1800000000000),
                ('\(harbour)', 'Harbour Gym', 1800000001000);
            UPDATE companies SET correction_window_seconds = 120, wheel_flag_below = 5.5 WHERE id = '\(harbour)';

            INSERT INTO trainers (id, company_id, email, name, role, password_hash, created_at, updated_at) VALUES
                ('\(ana)', '\(peak)', 'ana@peak.example', 'Ana', 'admin', '$argon2id$v=19$m=65536,t=3,p=1$c2FsdA$aGFzaA',
                 1800000002000, 1800000002000),
                ('\(ben)', '\(peak)', 'ben@peak.example', 'Ben', 'trainer', '$argon2id$v=19$m=65536,t=3,p=1$c2FsdA$aGFzaA',
                 1800000003000, 1800000004000),
                ('\(cat)', '\(harbour)', 'cat@harbour.example', 'Cat', 'admin', '$argon2id$v=19$m=65536,t=3,p=1$c2FsdA$aGFzaA',
                 1800000005000, 1800000005000);
            INSERT INTO sessions (token_hash, trainer_id, created_at, expires_at) VALUES
                (x'00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff', '\(ana)', 1800000006000, 1800003606000),
                (x'ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100', '\(cat)', 1800000006000, 1800003606000);
            INSERT INTO idempotent_responses (trainer_id, key, fingerprint, status, body, created_at) VALUES
                ('\(ben)', '7f3c9a', 'f1e2d3', 201, x'7b226964223a317d', 1800000007000);

            INSERT INTO clients (id, company_id, given_name, family_name, email, phone, birth_date, sex, height, mass, goal,
                                 notes, assigned_trainer_id, vcard_uid, sort_name, created_at, updated_at) VALUES
                ('\(zoe)', '\(peak)', 'Zoë', 'Ångström', 'zoe@example.com', '+64 21 555 0101', '1985-03-14', 'female', 1.7018,
                 63.5029, 'Run a half marathon', NULL, '\(ben)', 'uid-zoe', 'angstrom zoe', 1800000010000, 1800000011000),
                ('\(olivia)', '\(peak)', 'Olivia', 'Smith-Walker', NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'Prefers mornings',
                 NULL, NULL, 'smith-walker olivia', 1800000012000, 1800000012000),
                ('\(tane)', '\(harbour)', 'Tane', 'Mahuta', 'tane@example.com', '021 555 0199', '1990-07-01', 'male', 1.85, 92.0,
                 NULL, NULL, '\(cat)', NULL, 'mahuta tane', 1800000013000, 1800000013000);
            INSERT INTO client_search_terms (company_id, term, client_id, sort_name, all_terms) VALUES
                ('\(peak)', 'zoe', '\(zoe)', 'angstrom zoe', ' zoe angstrom zoe@example.com 64215550101'),
                ('\(peak)', 'angstrom', '\(zoe)', 'angstrom zoe', ' zoe angstrom zoe@example.com 64215550101'),
                ('\(harbour)', 'tane', '\(tane)', 'mahuta tane', ' tane mahuta tane@example.com 0215550199');
            INSERT INTO client_photos (client_id, content_type, bytes, updated_at) VALUES
                ('\(zoe)', 'image/jpeg', x'ffd8ffe000104a46494600010100000100010000ffd9', 1800000014000);

            INSERT INTO screenings (id, client_id, questionnaire_id, questionnaire_version, status, answers, flags, created_at,
                                    created_by, updated_at, completed_at, completed_by) VALUES
                ('50000000-0000-4000-8000-000000000001', '\(zoe)', 'screening', 1, 'amended',
                 '{"smoker":false,"restingHeartRate":62}', '["knee-injury"]', 1800000020000, '\(ben)', 1800000022000,
                 1800000021000, '\(ben)'),
                ('50000000-0000-4000-8000-000000000002', '\(tane)', 'screening', 1, 'draft', '{}', '[]', 1800000023000,
                 '\(cat)', 1800000023000, NULL, NULL);
            INSERT INTO screening_revisions (screening_id, field, old_value, new_value, changed_by, changed_at) VALUES
                ('50000000-0000-4000-8000-000000000001', 'smoker', 'true', 'false', '\(ben)', 1800000022000);

            INSERT INTO exercise_packs (owner, id, version, definition, imported_at) VALUES
                ('*', 'strength', 1, '{"id":"strength","version":1,"exercises":[{"id":"bench-press-1rm"}]}', 1800000000000),
                ('*', 'endurance', 1, '{"id":"endurance","version":1,"exercises":[{"id":"push-ups"}]}', 1800000000000);
            INSERT INTO results (id, client_id, company_id, exercise_owner, exercise_id, category_id, pack_version, trainer_id,
                                 values_json, observations, subject_sex, subject_age, subject_height, subject_mass, score,
                                 score_error, recorded_at, created_at, updated_at, revision) VALUES
                ('e0000000-0000-4000-8000-000000000001', '\(zoe)', '\(peak)', '*', 'bench-press-1rm', 'strength', 1, '\(ben)',
                 '{"load":65.77,"reps":8}', NULL, 'female', 40, 1.7018, 63.5029, 6.5, NULL, 1800000030000, 1800000030000,
                 1800000031000, 2),
                ('e0000000-0000-4000-8000-000000000002', '\(tane)', '\(harbour)', '*', 'push-ups', 'endurance', 1, '\(cat)',
                 '{"count":20}', 'Good form', 'male', 35, 1.85, 92.0, NULL, 'script error: attempt to compare nil with number',
                 1800000032000, 1800000032000, 1800000032000, 1);
            INSERT INTO result_revisions (result_id, revision, pack_version, values_json, observations, subject_sex, subject_age,
                                          subject_height, subject_mass, score, score_error, recorded_at, replaced_at,
                                          replaced_by, reason) VALUES
                ('e0000000-0000-4000-8000-000000000001', 1, 1, '{"load":61.23,"reps":8}', NULL, 'female', 40, 1.7018, 63.5029,
                 6.0, NULL, 1800000030000, 1800000031000, '\(ben)', 'correction');
            """
    }
}

/// Every row of every table but `schema_migrations`, in a fixed order (by every column, so a rebuild that renumbers
/// rowids still compares equal), for before/after comparisons.
private func dumpAllTables(_ database: SQLiteDatabase) throws -> [String: [[SQLValue]]] {
    try database.readBlocking { db in
        let tables: [String] = try await db.query(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations'"
        ).map { try $0["name"] }
        var dump: [String: [[SQLValue]]] = [:]
        for table in tables {
            let columns = try await db.query("PRAGMA table_info(\"\(table)\")").count
            let order = (1...columns).map(String.init).joined(separator: ", ")
            dump[table] = try await db.query("SELECT * FROM \"\(table)\" ORDER BY \(order)").map(\.values)
        }
        return dump
    }
}

/// Every index and trigger (automatic ones too) as type, name, table and SQL text.
private func indexesAndTriggers(_ database: SQLiteDatabase) throws -> [[SQLValue]] {
    try database.readBlocking { db in
        try await db.query("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE type IN ('index', 'trigger') ORDER BY type, name").map(\.values)
    }
}

/// The whole schema as sqlite_master holds it.
private func schema(_ database: SQLiteDatabase) throws -> [[SQLValue]] {
    try database.readBlocking { db in try await db.query("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").map(\.values) }
}

/// The CREATE TABLE text of `table`, empty if there is no such table.
private func tableSQL(_ table: String, _ database: SQLiteDatabase) throws -> String {
    try database.readBlocking { db in
        try await db.query("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", table).first.map { try $0["sql"] } ?? ""
    }
}

/// Whether the writer, the connection migrations run on, enforces foreign keys.
private func writerForeignKeysAreOn(_ database: SQLiteDatabase) throws -> Bool {
    try database.withWriter { db in try db.scalar("PRAGMA foreign_keys") as Int } == 1
}
