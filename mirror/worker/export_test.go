package worker

// BatchOf and BatchCount are batchOf and batchCount, for the tests.
var BatchOf, BatchCount = batchOf, batchCount
