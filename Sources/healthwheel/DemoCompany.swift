import Credentials
import Foundation
import HealthwheelCore
import Store

/// On an empty database: a demo company with one admin, whose login is printed once (never logged).
enum DemoCompany {
    static let email = "admin@demo.healthwheel.example"

    static func createIfEmpty(_ store: Store) async throws {
        guard try await store.companies.count() == 0 else { return }
        let now = Date()
        let company = Company(name: "Demo Fitness", createdAt: now)
        let password = GeneratedPassword.make()
        let admin = Trainer(companyId: company.id, email: email, name: "Demo Admin", role: .admin, createdAt: now, updatedAt: now)
        try await store.companies.create(company)
        try await store.trainers.create(admin, passwordHash: try PasswordHasher().hash(password))
        // Written straight to the terminal (unbuffered, not through the logger): shown once, never logged.
        let notice = """

            Demo login (shown only this once; change the password after signing in):
              email:    \(email)
              password: \(password)


            """
        FileHandle.standardOutput.write(Data(notice.utf8))
    }
}
