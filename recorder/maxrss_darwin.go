package recorder

// maxrssUnit: darwin reports ru_maxrss in bytes.
const maxrssUnit = 1
