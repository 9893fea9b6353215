package membound.profile;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * A compute ceiling: the FMA peak (independent fused multiply-adds in registers, no memory traffic) or
 * the rate an attainable GEMM reaches. One FMA counts as 2 FLOP.
 *
 * @param id            unique within the device
 * @param kind          fma-peak or gemm
 * @param precision     the number format
 * @param threads       threads, if known
 * @param matrixSize    n of the n×n×n GEMM, absent for fma-peak
 * @param flopsPerSecond the distribution of FLOP per second
 * @param provenance    how it was measured
 */
public record ComputeEntry(String id, Kind kind, Precision precision, Integer threads, Long matrixSize,
                           Distribution flopsPerSecond, Provenance provenance) {

    public ComputeEntry {
        Checks.id("compute.id", id);
        Checks.present("compute.kind", kind);
        Checks.present("compute.precision", precision);
        Checks.optionalPositive("compute.threads", threads);
        Checks.optionalPositive("compute.matrixSize", matrixSize);
        Checks.present("compute.flopsPerSecond", flopsPerSecond);
        Checks.present("compute.provenance", provenance);
    }

    /** Which ceiling. */
    public enum Kind implements JsonNames {
        FMA_PEAK("fma-peak"),
        GEMM("gemm");

        private final String jsonName;

        Kind(String jsonName) {
            this.jsonName = jsonName;
        }

        @JsonValue
        @Override
        public String jsonName() {
            return jsonName;
        }

        @JsonCreator
        public static Kind of(String text) {
            return JsonNames.parse(Kind.class, "compute.kind", text);
        }

        @Override
        public String toString() {
            return jsonName;
        }
    }
}
