package membound.profile;

import java.util.List;
import java.util.Optional;

import membound.vocabulary.Labelled;
import membound.vocabulary.Precision;

/**
 * What the datasheet promises, next to what was measured. A figure nobody published (or the user did
 * not give) is stated as {@code "unknown"} with the reason, never guessed.
 *
 * @param platformId      catalog id of the platform the figures belong to, absent when none was recognised
 * @param platformName    its name, when known
 * @param memoryBandwidth one entry per memory (a DGX Spark has one, shared by cpu and gpu)
 * @param compute         peak FLOP rates per device and precision
 */
public record Nominal(String platformId, String platformName, List<MemoryBandwidth> memoryBandwidth,
                      List<Compute> compute) {

    public Nominal {
        Checks.optionalId("nominal.platformId", platformId);
        Checks.optionalText("nominal.platformName", platformName);
        memoryBandwidth = Checks.list("nominal.memoryBandwidth", memoryBandwidth);
        compute = Checks.list("nominal.compute", compute);
    }

    /** No platform recognised and no figure given: every figure unknown for the given reason. */
    public static Nominal unknown(String reason, String... deviceIds) {
        return new Nominal(null, null, List.of(MemoryBandwidth.unknown(List.of(deviceIds), reason)), List.of());
    }

    /** The nominal bandwidth of the memory that {@code deviceId} uses, when one is known. */
    public Optional<MemoryBandwidth> memoryBandwidthOf(String deviceId) {
        return memoryBandwidth.stream()
                .filter(m -> m.state() == State.KNOWN && m.deviceIds().contains(deviceId))
                .findFirst();
    }

    /** The nominal dense compute rate of {@code deviceId} at {@code precision}, when one is known. */
    public Optional<Compute> computeOf(String deviceId, Precision precision) {
        return compute.stream()
                .filter(c -> c.state() == State.KNOWN && !c.sparse() && c.deviceId().equals(deviceId)
                        && c.precision() == precision)
                .findFirst();
    }

    /** Whether a nominal figure is known. */
    public enum State implements Labelled {
        KNOWN("known"),
        UNKNOWN("unknown");

        private final String label;

        State(String label) {
            this.label = label;
        }

        @Override
        public String label() {
            return label;
        }

        public static State of(String text) {
            return Labelled.parse(State.class, "state", text);
        }

        @Override
        public String toString() {
            return label;
        }
    }

    /**
     * Nominal bandwidth of one memory.
     *
     * @param deviceIds      the devices that use this memory
     * @param state          known or unknown
     * @param bytesPerSecond the figure, when known (GB = 10^9 bytes: 273 GB/s is 273000000000)
     * @param reason         why it is unknown; absent when known
     * @param provenance     datasheet or user, when known
     */
    public record MemoryBandwidth(List<String> deviceIds, State state, Double bytesPerSecond, String reason,
                                  Provenance provenance) {
        public MemoryBandwidth {
            deviceIds = Checks.ids("memoryBandwidth.deviceIds", deviceIds);
            if (deviceIds.isEmpty()) {
                throw Checks.bad("memoryBandwidth.deviceIds", "at least one device id", "[]");
            }
            checkState(state, "memoryBandwidth", "bytesPerSecond", bytesPerSecond, reason, provenance);
        }

        public static MemoryBandwidth known(List<String> deviceIds, double bytesPerSecond, Provenance provenance) {
            return new MemoryBandwidth(deviceIds, State.KNOWN, bytesPerSecond, null, provenance);
        }

        public static MemoryBandwidth unknown(List<String> deviceIds, String reason) {
            return new MemoryBandwidth(deviceIds, State.UNKNOWN, null, reason, null);
        }
    }

    /**
     * Nominal peak compute of one device at one precision.
     *
     * @param deviceId       the device
     * @param precision      the number format
     * @param sparse         true for a figure that assumes 2:4 structured sparsity (the "1 PFLOP FP4" kind)
     * @param state          known or unknown
     * @param flopsPerSecond the figure, when known
     * @param reason         why it is unknown; absent when known
     * @param provenance     datasheet or user, when known
     */
    public record Compute(String deviceId, Precision precision, boolean sparse, State state, Double flopsPerSecond,
                          String reason, Provenance provenance) {
        public Compute {
            Checks.id("compute.deviceId", deviceId);
            Checks.present("compute.precision", precision);
            checkState(state, "compute", "flopsPerSecond", flopsPerSecond, reason, provenance);
        }

        public static Compute known(String deviceId, Precision precision, boolean sparse, double flopsPerSecond,
                                    Provenance provenance) {
            return new Compute(deviceId, precision, sparse, State.KNOWN, flopsPerSecond, null, provenance);
        }
    }

    private static void checkState(State state, String what, String field, Double value, String reason,
                              Provenance provenance) {
        Checks.present(what + ".state", state);
        if (state == State.KNOWN) {
            Checks.positive(what + "." + field, Checks.present(what + "." + field, value));
            Checks.present(what + ".provenance", provenance);
            if (reason != null) {
                throw Checks.bad(what + ".reason", "absent when the figure is known", reason);
            }
        } else {
            Checks.text(what + ".reason", reason);
            if (value != null) {
                throw Checks.bad(what + "." + field, "absent when the state is unknown (never a guess)", value);
            }
        }
    }
}
