// What every suite of this target shares (polling, the process table): one place, the
// TestSupport target, seen by every file here.
@_exported import TestSupport
