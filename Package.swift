// swift-tools-version:6.1
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "healthwheel",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "healthwheel", targets: ["healthwheel"])
    ],
    // The embedded store (an encrypted SQLCipher file) is the default and needs nothing more. PostgreSQL, for
    // several nodes over one database, brings postgres-nio and its TLS stack (two copies of BoringSSL): built only
    // when asked for (`swift build --traits PostgreSQL`; scripts/test, scripts/cluster and bench/run do).
    traits: [
        .trait(name: "PostgreSQL", description: "PostgreSQL as the store, through postgres-nio (`serve --database-url`).")
    ],
    dependencies: [
        // Without its swift-configuration support, which we do not use (one package fewer to build).
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", exact: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", exact: "1.35.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", exact: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", exact: "2.4.1"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", exact: "2.1.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", exact: "2.13.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", exact: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", exact: "2.37.6"),
    ],
    targets: [
        // C libraries from Debian's -dev packages, each wrapped by one small Swift file.
        .systemLibrary(name: "CSQLCipher", pkgConfig: "sqlcipher", providers: [.apt(["libsqlcipher-dev"])]),
        .systemLibrary(name: "CArgon2", pkgConfig: "libargon2", providers: [.apt(["libargon2-dev"])]),
        .systemLibrary(name: "COpenSSLCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CLua", pkgConfig: "lua5.4", providers: [.apt(["liblua5.4-dev"])]),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CSeccomp", pkgConfig: "libseccomp", providers: [.apt(["libseccomp-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig-dev"])]),
        // vips.pc adds -pthread, which SwiftPM refuses; its headers need only glib's paths (gobject-2.0.pc gives them).
        .systemLibrary(name: "CVips", pkgConfig: "gobject-2.0", providers: [.apt(["libvips-dev"])]),
        // C for what Swift cannot call: Lua's macros, variadics and the count hook that raises via longjmp.
        .target(name: "CLuaShim", dependencies: ["CLua"]),
        .target(name: "CCurlShim", dependencies: ["CCurl"]),
        // libvips behind three plain functions, so Swift never imports glib's headers; opened on first use (dlopen).
        .target(name: "CVipsShim", dependencies: ["CVips"], linkerSettings: [.linkedLibrary("dl")]),

        // The domain: pure Swift, no I/O.
        .target(name: "HealthwheelCore", swiftSettings: swiftSettings),
        // SHA-256, HMAC, HKDF and AES-256-GCM through the libcrypto SQLCipher already links.
        .target(name: "Cryptography", dependencies: ["COpenSSLCrypto"], swiftSettings: swiftSettings),
        // Password hashing (Argon2id), token digests (SHA-256), random tokens.
        .target(name: "Credentials", dependencies: ["HealthwheelCore", "CArgon2", "Cryptography"], swiftSettings: swiftSettings),
        // Confined worker processes, whatever they run: spawning, rlimits and a seccomp filter, framing, and the
        // per-company fair queue their pools share.
        .target(name: "Workers", dependencies: ["CSeccomp"], swiftSettings: swiftSettings),
        // Sandboxed Lua 5.4 scoring scripts: limits, compiled-chunk cache, pool of states (Engine/), run in a pool
        // of scoring worker processes (Workers/).
        .target(name: "Scoring", dependencies: ["CLua", "CLuaShim", "Workers"], swiftSettings: swiftSettings),
        // What the use cases may know of storage: the repository protocols and the records they trade in. Services,
        // the API and the console depend on this, never on Store.
        .target(name: "StoreContract", dependencies: ["HealthwheelCore"], swiftSettings: swiftSettings),
        // Storage: the repositories, written once over a small SQL connection protocol, on an encrypted SQLCipher
        // file (the embedded default) or, with the PostgreSQL trait, on PostgreSQL through postgres-nio (several
        // nodes, one database).
        .target(
            name: "Store",
            dependencies: [
                "CSQLCipher", "HealthwheelCore", "Cryptography", "StoreContract", "Workers",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // Use cases and caches: what both doors, HTTP and the CLI, call. Never imports Hummingbird.
        .target(
            name: "Services",
            dependencies: [
                "HealthwheelCore", "Credentials", "Cryptography", "StoreContract", "Scoring", "Reports", "Media", "Mail", "Workers", "Webhooks",
                .product(name: "Logging", package: "swift-log"),
                // Password hashing runs on NIO's blocking-work thread pool, off the cooperative threads.
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // Tenants' pictures read and decoded out of the server's process: a pool of confined media worker processes
        // running our header readers and the C decoders (libvips, cairo).
        .target(name: "Media", dependencies: ["HealthwheelCore", "Reports", "Workers"], swiftSettings: swiftSettings),
        // ZIP archives written front to back as they are sent (a client's export), over zlib.
        .target(name: "Zip", dependencies: ["CZlib"], swiftSettings: swiftSettings),
        // Mail: a MIME composer and SMTP through libcurl.
        .target(name: "Mail", dependencies: ["CCurl", "CCurlShim"], swiftSettings: swiftSettings),
        // Webhook deliveries over HTTPS through libcurl, checked against the address policy and pinned to the
        // checked address.
        .target(name: "Webhooks", dependencies: ["CCurl", "CCurlShim", "HealthwheelCore"], swiftSettings: swiftSettings),
        // Drawn wheels and reports (layout in pure Swift; SVG/HTML written, pictures drawn with cairo, the PDF written
        // by our own writer with the theme's TrueType font found through fontconfig), and the report as an email.
        .target(
            name: "Reports",
            dependencies: [
                "HealthwheelCore", "Mail", "CCairo", "CFontconfig", "CZlib", "CVipsShim", .product(name: "Mustache", package: "swift-mustache"),
            ],
            resources: [.copy("Resources/en.json"), .copy("Resources/es.json"), .copy("Resources/report.html.mustache")],
            swiftSettings: swiftSettings
        ),
        // Uploads as multipart/form-data, read as they stream in (our parser: MultipartKit 4.7.1's trapped on input).
        .target(name: "Multipart", dependencies: [.product(name: "NIOCore", package: "swift-nio")], swiftSettings: swiftSettings),
        // HTTP API.
        .target(
            name: "API",
            dependencies: [
                "HealthwheelCore", "Credentials", "Cryptography", "Services", "StoreContract", "Reports", "Multipart", "Zip",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.copy("openapi.yaml")],
            swiftSettings: swiftSettings
        ),
        // The trainers' web console at `/`: pages rendered on the server (Mustache) over the same use cases as the
        // API, on the API's router.
        .target(
            name: "Console",
            dependencies: [
                "HealthwheelCore", "Credentials", "Cryptography", "Services", "StoreContract", "Reports", "Multipart", "API",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            resources: [.copy("Resources/templates"), .copy("Resources/assets"), .copy("Resources/strings")],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "healthwheel",
            dependencies: [
                "API", "Console", "Services", "Store", "StoreContract", "Scoring", "Media", "Credentials", "HealthwheelCore", "Reports", "Mail",
                "Workers", "Webhooks",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),

        // Scores/second through ScoreEngine next to the raw Lua C API loop (bench/scoring).
        .executableTarget(
            name: "scoring-bench",
            dependencies: ["Scoring", "CLua", "CLuaShim"],
            path: "bench/scoring-bench",
            swiftSettings: swiftSettings
        ),
        // Single-row write transactions/second through Store's Connection, no HTTP (bench/run: sqlcipher_raw_commits).
        .executableTarget(name: "store-bench", dependencies: ["Store"], path: "bench/store-bench", swiftSettings: swiftSettings),
        // pgbench's select-only statement through postgres-nio alone and through Store (bench/run --postgres:
        // pg_client_select_only, pg_store_select_only).
        .executableTarget(
            name: "pg-client-bench",
            dependencies: [
                "Store", "StoreContract",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "bench/pg-client-bench",
            swiftSettings: swiftSettings
        ),

        .target(
            name: "TestSupport",
            dependencies: ["Store", "StoreContract", "HealthwheelCore", "COpenSSLCrypto"],
            path: "Tests/TestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "HealthwheelCoreTests", dependencies: ["HealthwheelCore", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "ScoringTests", dependencies: ["Scoring", "Workers", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "CryptographyTests", dependencies: ["Cryptography"], swiftSettings: swiftSettings),
        .testTarget(name: "CredentialsTests", dependencies: ["Credentials", "Cryptography", "HealthwheelCore"], swiftSettings: swiftSettings),
        .testTarget(
            name: "StoreTests",
            dependencies: ["Store", "StoreContract", "HealthwheelCore", "TestSupport", "Cryptography"],
            swiftSettings: swiftSettings
        ),
        // Golden pictures are read from the checkout by path (and rewritten there on request), not bundled.
        .testTarget(
            name: "ReportsTests",
            dependencies: ["Reports", "HealthwheelCore", "TestSupport"],
            exclude: ["Golden"],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "MediaWorkersTests", dependencies: ["Media", "Reports", "HealthwheelCore", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "MailTests", dependencies: ["Mail", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(
            name: "WebhooksTests",
            dependencies: ["Webhooks", "Credentials", "HealthwheelCore", "TestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ZipTests",
            dependencies: ["Zip", "TestSupport", "Cryptography"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ServicesTests",
            dependencies: ["Services", "Store", "StoreContract", "HealthwheelCore", "Credentials", "Media", "TestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "APITests",
            dependencies: [
                "API", "Console", "Mail", "Media", "Multipart", "Reports", "Services", "Store", "StoreContract", "Scoring", "HealthwheelCore",
                "Credentials", "Webhooks",
                "Cryptography", "TestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CLITests",
            dependencies: ["healthwheel", "Store", "StoreContract", "Credentials", "TestSupport"],
            swiftSettings: swiftSettings
        ),
    ]
)

// libFuzzer targets (Fuzz/<Name>, one executable each), declared only when scripts/fuzz builds them with
// `-sanitize=fuzzer,address`: libFuzzer's driver is their main (Fuzz/Support), which needs the library mode.
if Context.environment["HEALTHWHEEL_FUZZ"] == "1" {
    let fuzzSettings = swiftSettings + [.unsafeFlags(["-parse-as-library"])]
    // ld.gold cannot link libFuzzer's objects with SwiftPM's renamed entry point; lld (in the toolchain) can.
    let fuzzLinking: [LinkerSetting] = [.unsafeFlags(["-use-ld=lld"])]
    package.targets.append(.target(name: "FuzzSupport", dependencies: ["HealthwheelCore"], path: "Fuzz/Support", swiftSettings: fuzzSettings))
    let targets: [(name: String, under: Target.Dependency)] = [
        ("VCard", "HealthwheelCore"), ("Measurement", "HealthwheelCore"), ("ExercisePack", "HealthwheelCore"),
        ("ScreeningAnswers", "HealthwheelCore"), ("Theme", "HealthwheelCore"), ("MediaHeaders", "HealthwheelCore"),
        ("Multipart", "Multipart"),
    ]
    for (name, under) in targets {
        package.targets.append(
            .executableTarget(
                name: "fuzz-\(name.lowercased())",
                dependencies: ["FuzzSupport", under],
                path: "Fuzz/\(name)",
                swiftSettings: fuzzSettings,
                linkerSettings: fuzzLinking
            )
        )
    }
}
