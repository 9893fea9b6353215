package membound.profile;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

import membound.vocabulary.Labelled;

/**
 * Whether a CPU's stores allocate: whether a store to a line the code has not read first reads that line (write-
 * allocate), as caches do for ordinary stores, or whether the core streams full lines to memory without reading them
 * (Arm cores' write-streaming mode, some x86 cores that detect a stream of full-line stores). It says what the device's
 * hardware-byte figures ({@link BandwidthEntry#hardwareBytesPerSecond()}) and the in-place update's ceiling assume:
 * write-allocate's factors (Copy and Scale ×1.5, Add and Triad ×4/3, Fill ×2) unless the answer is {@code no}, where
 * the memory moves what the code reads and writes (×1). The calibrator decides it (its write-allocation rule) from a
 * write-only kernel against a read-only one at DRAM with the same team, and from the memory controller's counters
 * where the host lets it read them.
 *
 * @param answer              {@code yes} or {@code no} (measured), {@code undetermined} (measured, and the figures
 *                            could not tell: write-allocate is assumed), {@code assumed} (not measured: a profile
 *                            written before schema 4)
 * @param reason              one line: the evidence and the thresholds it was read against, or why nothing was
 *                            measured
 * @param readBandwidthId     the read-only entry (Sum at DRAM) the decision read, where one was measured
 * @param writeBandwidthId    the write-only entry (Fill at DRAM, the same team) it read, where one was measured
 * @param readOverWrite       the read entry's typical STREAM-byte figure over the write entry's: about 2 where every
 *                            store also reads its line and memory is saturated, about 1 where stores do not allocate
 * @param halfTeamBandwidthId the read-only entry with half the team, where one was measured: whether the full team
 *                            saturated memory
 * @param teamGain            the full team's read figure over the half team's: near 1 where half the team already
 *                            saturated memory, near 2 where each core is limited by its own outstanding loads
 * @param counters            what the memory controller counted during a write-only stream, where the host let
 *                            membound read its counters
 * @param countersNote        why no counters were read (no memory-controller PMU, as in a VM; no {@code perf};
 *                            not permitted), or what limits those read
 */
public record WriteAllocation(Answer answer, String reason,
                              @JsonInclude(JsonInclude.Include.NON_NULL) String readBandwidthId,
                              @JsonInclude(JsonInclude.Include.NON_NULL) String writeBandwidthId,
                              @JsonInclude(JsonInclude.Include.NON_NULL) Double readOverWrite,
                              @JsonInclude(JsonInclude.Include.NON_NULL) String halfTeamBandwidthId,
                              @JsonInclude(JsonInclude.Include.NON_NULL) Double teamGain,
                              @JsonInclude(JsonInclude.Include.NON_NULL) MemoryCounters counters,
                              @JsonInclude(JsonInclude.Include.NON_NULL) String countersNote) {

    /** The answer to "do this CPU's stores allocate?". */
    public enum Answer implements Labelled {
        /** Measured: a store also reads its line. */
        YES("yes"),
        /** Measured: a stream of full-line stores reads nothing. */
        NO("no"),
        /** Measured, and the figures could not tell: write-allocate is assumed. */
        UNDETERMINED("undetermined"),
        /** Not measured: write-allocate is assumed. */
        ASSUMED("assumed");

        private final String label;

        Answer(String label) {
            this.label = label;
        }

        @Override
        public String label() {
            return label;
        }

        @Override
        public String toString() {
            return label;
        }
    }

    /**
     * What a memory controller counted while every cpu streamed a write-only kernel: a store that allocates makes the
     * controller read as many lines as it writes; one that streams makes it read next to nothing.
     *
     * @param tool       the command that read them ({@code perf stat -a})
     * @param events     the read and the write event, as that tool names them
     * @param readBytes  bytes read from memory over the window (all sources on the machine)
     * @param writeBytes bytes written to memory over the window
     * @param seconds    how long the window was
     * @param kernel     what ran during the window (the Fill kernel, its team and its arrays)
     */
    public record MemoryCounters(String tool, List<String> events, double readBytes, double writeBytes,
                                 double seconds, String kernel) {
        public MemoryCounters {
            Checks.text("writeAllocation.counters.tool", tool);
            events = Checks.list("writeAllocation.counters.events", events);
            if (events.size() != 2) {
                throw Checks.bad("writeAllocation.counters.events", "two events, the read one then the write one",
                        events);
            }
            events.forEach(e -> Checks.text("writeAllocation.counters.events", e));
            Checks.nonNegative("writeAllocation.counters.readBytes", readBytes);
            Checks.positive("writeAllocation.counters.writeBytes", writeBytes);
            Checks.positive("writeAllocation.counters.seconds", seconds);
            Checks.text("writeAllocation.counters.kernel", kernel);
        }

        /** Bytes read over bytes written: about 1 where stores allocate, about 0 where they stream. */
        public double readOverWrite() {
            return readBytes / writeBytes;
        }
    }

    public WriteAllocation {
        Checks.present("writeAllocation.answer", answer);
        Checks.text("writeAllocation.reason", reason);
        Checks.optionalId("writeAllocation.readBandwidthId", readBandwidthId);
        Checks.optionalId("writeAllocation.writeBandwidthId", writeBandwidthId);
        Checks.optionalPositive("writeAllocation.readOverWrite", readOverWrite);
        Checks.optionalId("writeAllocation.halfTeamBandwidthId", halfTeamBandwidthId);
        Checks.optionalPositive("writeAllocation.teamGain", teamGain);
        Checks.optionalText("writeAllocation.countersNote", countersNote);
        if ((readOverWrite != null) != (readBandwidthId != null && writeBandwidthId != null)) {
            throw Checks.bad("writeAllocation.readOverWrite", "given with both readBandwidthId and writeBandwidthId",
                    readOverWrite == null ? "<none>" : readOverWrite);
        }
        if ((teamGain != null) != (halfTeamBandwidthId != null)) {
            throw Checks.bad("writeAllocation.teamGain", "given with halfTeamBandwidthId and only with it",
                    teamGain == null ? "<none>" : teamGain);
        }
        if ((answer == Answer.YES || answer == Answer.NO) && readOverWrite == null && counters == null) {
            throw Checks.bad("writeAllocation.answer", "yes or no only with its evidence (readOverWrite or counters)",
                    answer);
        }
        if (answer == Answer.ASSUMED && (readBandwidthId != null || writeBandwidthId != null || counters != null)) {
            throw Checks.bad("writeAllocation.answer", "measured (yes, no or undetermined) where entries or counters "
                    + "were read", answer);
        }
    }

    /** Not measured: write-allocate is assumed, for the reason given. */
    public static WriteAllocation assumed(String reason) {
        return new WriteAllocation(Answer.ASSUMED, reason, null, null, null, null, null, null, null);
    }

    /**
     * Whether the hardware-byte figures count a read of every line stored (write-allocate): everywhere but where the
     * answer is a measured {@code no}.
     */
    public boolean storesAllocate() {
        return answer != Answer.NO;
    }

    /** Whether the answer was measured on this CPU: {@code yes} or {@code no}. */
    public boolean measured() {
        return answer == Answer.YES || answer == Answer.NO;
    }

    /** The bandwidth entries the decision read. */
    public List<String> bandwidthIds() {
        return java.util.stream.Stream.of(readBandwidthId, writeBandwidthId, halfTeamBandwidthId)
                .filter(java.util.Objects::nonNull).toList();
    }

    /**
     * One line for people: the answer, what the hardware figures count, and the evidence, e.g. {@code no (measured):
     * hardware bytes = STREAM bytes; Sum 52.0 GB/s over Fill 49.8 GB/s = 1.04 ...}.
     */
    public String describe() {
        String counting = storesAllocate() ? "hardware bytes count write-allocate (Copy/Scale x1.5, Add/Triad x4/3, "
                + "Fill x2)" : "hardware bytes = STREAM bytes (x1)";
        String what = switch (answer) {
            case YES -> "yes (measured)";
            case NO -> "no (measured)";
            case UNDETERMINED -> "undetermined (measured; write-allocate assumed)";
            case ASSUMED -> "assumed, not measured";
        };
        return what + ": " + counting + "; " + reason;
    }
}
