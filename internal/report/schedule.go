package report

import "github.com/flybench/flybench/pkg/ndjson"

// designText describes a collection schedule. exposed is true for a design
// whose comparison is exposed to drift between the cases' blocks.
func designText(design string) (text string, exposed bool) {
	switch design {
	case ndjson.DesignPaired:
		return "paired adjacent, order-balanced", false
	case ndjson.DesignRounds:
		return "shuffled cyclic rounds, position-balanced", false
	case ndjson.DesignSequential:
		return "sequential blocks — exposed to drift", true
	case ndjson.DesignSingle:
		return "single case", false
	case "":
		return "design not recorded", false
	}
	return design, false
}

// batchingText describes how batch sizes were chosen across cases.
func batchingText(batching string) string {
	switch batching {
	case "equal-time":
		return "equal timed slices"
	case "shared-iterations":
		return "shared iterations"
	}
	return batching
}

// scheduleText is the whole schedule line: "paired adjacent,
// order-balanced, equal timed slices".
func scheduleText(design, batching string) (text string, exposed bool) {
	text, exposed = designText(design)
	if b := batchingText(batching); b != "" {
		text += ", " + b
	}
	return text, exposed
}
