package membound.model.machine;

import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import membound.vocabulary.BadInputException;
import membound.vocabulary.DeviceKind;
import membound.vocabulary.Precision;

/**
 * The model's view of one device: its memory (capacity, tiers with bandwidth per access pattern,
 * whether CPU and GPU share it) and its compute (ceilings per precision, and the non-tensor vector
 * rate elementwise operations run at). Immutable; built from a datasheet catalog entry or a
 * calibrated profile by {@link Machines}. A host device may have no compute ceilings (the catalog
 * gives none for most CPUs); a training device must have one.
 *
 * @param tiers memory tiers ordered from the smallest (fastest) to the main memory, which is last
 * @param vectorFlopsPerSecond FP32 rate outside the matrix units; elementwise operations run at it
 * @param kernelLaunchSeconds the least time one kernel takes, launched back to back (measured on a GPU by its
 *                            suite), or null where unknown: no operation's repetition runs faster than this
 */
public record Device(String id, String name, DeviceKind kind, long capacityBytes, String capacitySource,
                     boolean unifiedMemory, List<MemoryTier> tiers, Map<Precision, ComputeCeiling> compute,
                     Ceiling vectorFlopsPerSecond, Ceiling kernelLaunchSeconds) {

    /** A device with no launch figure: a CPU, or a GPU known from the catalog only. */
    public Device(String id, String name, DeviceKind kind, long capacityBytes, String capacitySource,
                  boolean unifiedMemory, List<MemoryTier> tiers, Map<Precision, ComputeCeiling> compute,
                  Ceiling vectorFlopsPerSecond) {
        this(id, name, kind, capacityBytes, capacitySource, unifiedMemory, tiers, compute, vectorFlopsPerSecond, null);
    }

    public Device {
        if (id == null || id.isBlank() || kind == null) {
            throw new BadInputException("device needs an id and a kind");
        }
        if (capacityBytes <= 0) {
            throw new BadInputException("capacityBytes must be positive: capacityBytes=" + capacityBytes);
        }
        if (tiers == null || tiers.isEmpty()) {
            throw new BadInputException("device " + id + " needs at least its main memory tier");
        }
        if (compute == null) {
            compute = Map.of();
        }
        if (name == null) {
            name = id;
        }
        tiers = List.copyOf(tiers);
        Map<Precision, ComputeCeiling> copy = new EnumMap<>(Precision.class);
        copy.putAll(compute);
        compute = Collections.unmodifiableMap(copy);
    }

    public MemoryTier mainMemory() {
        return tiers.get(tiers.size() - 1);
    }

    /**
     * The ceiling for {@code precision}, or for the nearest wider precision the device has (FP8 on a
     * device without FP8 units runs as BF16); null if there is none.
     */
    public ComputeCeiling computeFor(Precision precision) {
        for (Precision p = precision; p != null; p = p.wider()) {
            ComputeCeiling ceiling = compute.get(p);
            if (ceiling != null) {
                return ceiling;
            }
        }
        // Nothing as wide or wider: use the widest the device has (a CPU profile with FP32 only has FP32).
        for (Precision p : Precision.TRAINING) {
            if (compute.containsKey(p)) {
                return compute.get(p);
            }
        }
        return null;
    }

    /** Vector rate for elementwise work: the declared one, else the FP32 (or nearest) dense peak; null if none. */
    public Ceiling vectorFlops() {
        if (vectorFlopsPerSecond != null) {
            return vectorFlopsPerSecond;
        }
        ComputeCeiling nearest = computeFor(Precision.FP32);
        return nearest == null ? null : nearest.peakDense();
    }

    public boolean hasCompute() {
        return !compute.isEmpty();
    }

    /** Every memory ceiling times {@code bandwidthFactor}, every compute ceiling times {@code computeFactor}. */
    public Device scaled(double bandwidthFactor, double computeFactor, String why) {
        List<MemoryTier> scaledTiers = tiers.stream().map(t -> t.scaled(bandwidthFactor, why)).toList();
        Map<Precision, ComputeCeiling> scaledCompute = new EnumMap<>(Precision.class);
        compute.forEach((p, c) -> scaledCompute.put(p, c.scaled(computeFactor, why)));
        return new Device(id, name, kind, capacityBytes, capacitySource, unifiedMemory, scaledTiers, scaledCompute,
                vectorFlopsPerSecond == null ? null : vectorFlopsPerSecond.scaled(computeFactor, why),
                kernelLaunchSeconds);
    }

    public Device withTiers(List<MemoryTier> replaced) {
        return new Device(id, name, kind, capacityBytes, capacitySource, unifiedMemory, replaced, compute,
                vectorFlopsPerSecond, kernelLaunchSeconds);
    }

    /** This device with {@code launch} as its least time per kernel (null: unknown). */
    public Device withKernelLaunch(Ceiling launch) {
        return new Device(id, name, kind, capacityBytes, capacitySource, unifiedMemory, tiers, compute,
                vectorFlopsPerSecond, launch);
    }

    public Device withCompute(Map<Precision, ComputeCeiling> replaced) {
        return new Device(id, name, kind, capacityBytes, capacitySource, unifiedMemory, tiers, replaced,
                vectorFlopsPerSecond, kernelLaunchSeconds);
    }
}
