import Media
import TestSupport

/// One pool of media workers for the use-case tests, as a server has one.
let testMediaWorkers = MediaWorkers(executable: HealthwheelExecutable.url.path, workers: 1, deadline: .seconds(30))
