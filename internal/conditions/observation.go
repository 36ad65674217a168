package conditions

import (
	"github.com/flybench/flybench/pkg/ndjson"
)

// Observation is one reading of every detector at a boundary.
type Observation struct {
	Profile ProfileReading
	// Events and Millis are the throttle event and time counters.
	Events, Millis CounterReading
}

// Record returns the observation as a stream record, without a judgement.
// Whatever a detector could not supply says Unavailable or is absent.
func (o Observation) Record() ndjson.Conditions {
	c := ndjson.Conditions{
		ProfileDetector:  o.Profile.Detector,
		Profile:          o.Profile.Profile,
		RawProfile:       o.Profile.Raw,
		Degradation:      o.Profile.Degradation,
		ThrottleDetector: Unavailable,
	}
	if o.Events.Available || o.Millis.Available {
		c.ThrottleDetector = DetectorThermalThrottle
	}
	if o.Events.Available {
		c.ThrottleEvents = ptr(o.Events.Total)
	}
	if o.Millis.Available {
		c.ThrottleMS = ptr(o.Millis.Total)
	}
	return c
}

// Unavailable lists, as "what: why", every condition no detector supplied.
func (o Observation) Unavailable() []string {
	var out []string
	if !o.Profile.Available {
		out = append(out, "profile: "+o.Profile.Reason)
	}
	if !o.Events.Available {
		out = append(out, "throttle events: "+o.Events.Reason)
	}
	if !o.Millis.Available {
		out = append(out, "throttle time: "+o.Millis.Reason)
	}
	return out
}

func ptr(v int64) *int64 { return &v }
