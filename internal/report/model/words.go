package model

import (
	"fmt"
	"strings"
)

// Plural is a count with its noun: "1 case", "3 cases".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// JoinNonEmpty joins the parts that are not empty.
func JoinNonEmpty(parts []string, sep string) string { return strings.Join(NonEmpty(parts), sep) }

// NonEmpty is parts without its empty strings.
func NonEmpty(parts []string) []string {
	kept := parts[:0:0]
	for _, p := range parts {
		if p != "" {
			kept = append(kept, p)
		}
	}
	return kept
}
