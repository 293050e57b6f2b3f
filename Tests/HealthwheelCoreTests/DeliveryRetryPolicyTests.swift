import Testing

@testable import HealthwheelCore

@Suite struct DeliveryRetryPolicyTests {
    @Test func eightAttemptsWaitingFromOneMinuteToSixHours() {
        let policy = DeliveryRetryPolicy()
        let waits = (1...8).map { policy.wait(afterFailedAttempts: $0) }
        #expect(waits.first == 60 && waits[6] == 6 * 3_600, "1 minute after the first failure, 6 hours before the last attempt")
        #expect(waits[7] == nil, "no ninth attempt")
        let given = waits.compactMap { $0 }
        #expect(given.count == 7 && zip(given, given.dropFirst()).allSatisfy { $0 < $1 }, "each wait longer than the one before")
        #expect(given.reduce(0, +) > 9 * 3_600, "a mail server down for an afternoon still gets the mail")
        #expect(policy.wait(afterFailedAttempts: 0) == nil)
    }
}
