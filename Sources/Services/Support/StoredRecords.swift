// The stored records Services hands to its doors, re-exported one by one so that HTTP needs no `import Store`:
// Services is the only door to the store (docs/ARCHITECTURE.md §1), and the API target does not depend on Store.
// (A typealias cannot name them: inside Services, `Store.X` means a member of the `Store` struct.)

@_exported import enum Store.AuditAdoption
@_exported import struct Store.AuditCheckpointFile
@_exported import struct Store.AuditFilter
@_exported import struct Store.AuditHead
@_exported import struct Store.AuditVerification
@_exported import struct Store.ClientPhoto
@_exported import struct Store.ClientRecord
@_exported import struct Store.Cursor
@_exported import struct Store.IdempotencyKeyUsed
@_exported import struct Store.IdempotencyRecord
@_exported import struct Store.IdempotentResponse
@_exported import struct Store.Page
@_exported import struct Store.Principal
@_exported import struct Store.ResultFilter
@_exported import struct Store.StoredAuditEvent
@_exported import struct Store.StoredExercisePack
