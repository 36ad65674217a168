package runner

// MaxRSSBytes converts a ru_maxrss value to bytes: darwin reports bytes.
func MaxRSSBytes(maxrss int64) int64 { return maxrss }
