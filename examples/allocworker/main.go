// Command allocworker is a flybench worker (man fb-worker(7)) whose cases
// allocate on every iteration, so the garbage collector's work is part of
// what they time: the bench's realworld section compares it with itself
// (A/A) to show that a heap-churning worker looks the same as its copy.
//
//	json     encoding/json.Marshal of a fixed order: a struct of a dozen
//	         fields, a slice of 16 line items and a small map
//	json-18  the same order with 18 line items (more work: about a tenth
//	         more output)
//	map64    builds a map of 64 string keys to ints, grown from empty
//	map72    the same with 72 keys (more work: an eighth more inserts)
//
// The pairs json/json-18 and map64/map72 are the section's A/B
// comparisons, where a true difference exists.
//
// Every case returns something derived from each iteration's result, which
// the worker keeps alive after the ending timestamp.
//
//	printf 'run json 1000\nquit\n' | allocworker
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/flybench/flybench/worker"
)

type item struct {
	SKU      string  `json:"sku"`
	Name     string  `json:"name"`
	Quantity int     `json:"quantity"`
	Price    float64 `json:"price"`
	Taxable  bool    `json:"taxable"`
}

type order struct {
	ID        int64             `json:"id"`
	Customer  string            `json:"customer"`
	Email     string            `json:"email"`
	Street    string            `json:"street"`
	City      string            `json:"city"`
	Country   string            `json:"country"`
	Currency  string            `json:"currency"`
	Total     float64           `json:"total"`
	Paid      bool              `json:"paid"`
	Notes     *string           `json:"notes,omitempty"`
	Tags      []string          `json:"tags"`
	Items     []item            `json:"items"`
	Meta      map[string]string `json:"meta"`
	Discounts []float64         `json:"discounts"`
}

// theOrder and bigOrder are built at start-up from a fixed sequence;
// package variables, so the compiler cannot fold the marshalling of a
// constant.
var theOrder, bigOrder = newOrder(16), newOrder(18)

func newOrder(items int) *order {
	o := &order{ID: 90210, Customer: "Ada Lovelace", Email: "ada@example.org", Street: "12 Analytical Row",
		City: "London", Country: "GB", Currency: "GBP", Paid: true,
		Tags:      []string{"priority", "gift", "repeat-customer"},
		Meta:      map[string]string{"channel": "web", "campaign": "spring", "referrer": "newsletter", "warehouse": "north"},
		Discounts: []float64{0.05, 0.1}}
	for i := range items {
		it := item{SKU: fmt.Sprintf("SKU-%05d", 1000+i*37), Name: fmt.Sprintf("Widget model %d", i),
			Quantity: 1 + i%4, Price: 3.5 + float64(i)*1.25, Taxable: i%3 != 0}
		o.Items = append(o.Items, it)
		o.Total += float64(it.Quantity) * it.Price
	}
	return o
}

func marshal(o *order) func(int) any {
	return func(n int) any {
		total := 0
		for range n {
			b, err := json.Marshal(o)
			if err != nil {
				panic(err)
			}
			total += len(b)
		}
		return total
	}
}

// keys are the map keys, made once.
var keys = func() []string {
	k := make([]string, 72)
	for i := range k {
		k[i] = fmt.Sprintf("key-%02d-%x", i, i*2654435761)
	}
	return k
}()

// buildMap builds a map of the first size keys per iteration, grown from
// empty as most code grows its maps.
func buildMap(size int) func(int) any {
	ks := keys[:size]
	return func(n int) any {
		total := 0
		for range n {
			m := map[string]int{}
			for i, k := range ks {
				m[k] = i
			}
			total += len(m)
		}
		return total
	}
}

func main() {
	w := worker.New()
	w.CaseResult("json", marshal(theOrder))
	w.CaseResult("json-18", marshal(bigOrder))
	w.CaseResult("map64", buildMap(64))
	w.CaseResult("map72", buildMap(72))
	w.RuntimeAxes()
	os.Exit(w.Main())
}
