package membound.profile;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import com.fasterxml.jackson.annotation.JsonInclude;

import membound.vocabulary.AccessPattern;
import membound.vocabulary.DeviceKind;
import membound.vocabulary.MemoryLevel;
import membound.vocabulary.Precision;

/**
 * One device of the machine and what was measured (or imported) on it.
 *
 * @param id                "cpu", "gpu", "gpu1", ...
 * @param kind              cpu, gpu or accelerator
 * @param name              what it is ("NVIDIA GB10 (Cortex-X925 + Cortex-A725)", "NVIDIA GB10 GPU")
 * @param memory            the memory it uses
 * @param unifiedMemoryWith ids of the other devices that share this memory (DGX Spark: cpu and gpu); a
 *                          reader must not count offloading between them as extra capacity
 * @param bandwidth         every bandwidth measurement
 * @param levels            the ceiling per memory level and access pattern the model uses
 * @param threadScaling     bandwidth against threads
 * @param latency           load latency per working set
 * @param compute           compute measurements: FMA peaks, GEMMs of several orders, products at the model's shapes
 * @param computeCeilings   the compute ceiling per precision and kind the model uses, as the calibrator chose them
 * @param tenants           bandwidth shared between concurrent processes
 * @param operations        rates of elementwise operations bound by their transcendentals and reductions
 * @param launch            what starting a kernel costs (an accelerator measured by its suite), or null
 * @param sharing           how this device and the others of its memory share its bandwidth (the sharing curve)
 * @param writeAllocation   a CPU whose bandwidth entries count hardware bytes: whether its stores allocate, which
 *                          those figures assume (measured, undetermined, or assumed where nothing measured it);
 *                          absent elsewhere
 */
public record Device(
        String id,
        DeviceKind kind,
        String name,
        Memory memory,
        List<String> unifiedMemoryWith,
        List<BandwidthEntry> bandwidth,
        List<LevelCeiling> levels,
        List<ScalingCurve> threadScaling,
        List<LatencyEntry> latency,
        List<ComputeEntry> compute,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<FlopCeiling> computeCeilings,
        List<TenantEntry> tenants,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<OperationEntry> operations,
        @JsonInclude(JsonInclude.Include.NON_NULL) LaunchEntry launch,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<SharingEntry> sharing,
        @JsonInclude(JsonInclude.Include.NON_NULL) WriteAllocation writeAllocation) {

    /** A device without a launch figure (every CPU, and a GPU not measured by its suite). */
    public Device(String id, DeviceKind kind, String name, Memory memory, List<String> unifiedMemoryWith,
                  List<BandwidthEntry> bandwidth, List<LevelCeiling> levels, List<ScalingCurve> threadScaling,
                  List<LatencyEntry> latency, List<ComputeEntry> compute, List<FlopCeiling> computeCeilings,
                  List<TenantEntry> tenants, List<OperationEntry> operations) {
        this(id, kind, name, memory, unifiedMemoryWith, bandwidth, levels, threadScaling, latency, compute,
                computeCeilings, tenants, operations, null, List.of(), null);
    }

    public Device {
        Checks.id("device.id", id);
        Checks.present("device.kind", kind);
        Checks.text("device.name", name);
        unifiedMemoryWith = Checks.ids("device.unifiedMemoryWith", unifiedMemoryWith);
        if (unifiedMemoryWith.contains(id)) {
            throw Checks.bad("device.unifiedMemoryWith", "other devices than " + id, unifiedMemoryWith);
        }
        bandwidth = Checks.list("device.bandwidth", bandwidth);
        levels = Checks.list("device.levels", levels);
        threadScaling = Checks.list("device.threadScaling", threadScaling);
        latency = Checks.list("device.latency", latency);
        compute = Checks.list("device.compute", compute);
        computeCeilings = computeCeilings == null ? List.of() : Checks.list("device.computeCeilings", computeCeilings);
        tenants = Checks.list("device.tenants", tenants);
        operations = Checks.list("device.operations", operations);
        sharing = sharing == null ? List.of() : Checks.list("device.sharing", sharing);
        Checks.unique("device.operations.id", operations, OperationEntry::id);
        Checks.unique("device.bandwidth.id", bandwidth, BandwidthEntry::id);
        Checks.unique("device.latency.id", latency, LatencyEntry::id);
        Checks.unique("device.compute.id", compute, ComputeEntry::id);
        Checks.unique("device.levels (level, access)", levels, c -> c.level() + "/" + c.access());
        Checks.unique("device.computeCeilings (precision, kind)", computeCeilings, c -> c.precision() + "/" + c.kind());
        Set<String> computeIds = compute.stream().map(ComputeEntry::id).collect(Collectors.toSet());
        for (FlopCeiling ceiling : computeCeilings) {
            if (!computeIds.contains(ceiling.computeId())) {
                throw Checks.bad("device.computeCeilings.computeId", "the id of a compute entry of device " + id,
                        ceiling.computeId());
            }
        }
        Set<String> bandwidthIds = bandwidth.stream().map(BandwidthEntry::id).collect(Collectors.toSet());
        for (LevelCeiling ceiling : levels) {
            if (ceiling.bandwidthId() != null && !bandwidthIds.contains(ceiling.bandwidthId())) {
                throw Checks.bad("device.levels.bandwidthId", "the id of a bandwidth entry of device " + id,
                        ceiling.bandwidthId());
            }
        }
        if (writeAllocation != null) {
            if (kind != DeviceKind.CPU) {
                throw Checks.bad("device.writeAllocation", "given for a cpu only (device " + id + " is a " + kind + ")",
                        writeAllocation.answer());
            }
            if (!writeAllocation.storesAllocate()) {
                for (BandwidthEntry entry : bandwidth) {
                    if (entry.hardwareBytesPerSecond() != null
                            && !entry.hardwareBytesPerSecond().equals(entry.streamBytesPerSecond())) {
                        throw Checks.bad("device.bandwidth.hardwareBytesPerSecond", "the STREAM figure where the "
                                + "cpu's stores do not allocate (writeAllocation no): bandwidth " + entry.id(),
                                entry.hardwareBytesPerSecond().typical());
                    }
                }
            }
            for (String bandwidthId : writeAllocation.bandwidthIds()) {
                if (!bandwidthIds.contains(bandwidthId)) {
                    throw Checks.bad("device.writeAllocation.bandwidthId", "the id of a bandwidth entry of device " + id,
                            bandwidthId);
                }
            }
        } else if (kind == DeviceKind.CPU && bandwidth.stream().anyMatch(b -> b.hardwareBytesPerSecond() != null)) {
            throw Checks.bad("device.writeAllocation", "present on a cpu whose bandwidth entries count hardware bytes "
                    + "(it says whether they count write-allocate; assumed where nothing measured it): device " + id,
                    "absent");
        }
        for (ScalingCurve curve : threadScaling) {
            for (ScalingCurve.Point point : curve.points()) {
                if (point.bandwidthId() != null && !bandwidthIds.contains(point.bandwidthId())) {
                    throw Checks.bad("device.threadScaling.bandwidthId",
                            "the id of a bandwidth entry of device " + id, point.bandwidthId());
                }
            }
        }
    }

    /** A device with no measurements yet. */
    public static Device of(String id, DeviceKind kind, String name, Memory memory, List<String> unifiedMemoryWith) {
        return new Device(id, kind, name, memory, unifiedMemoryWith, List.of(), List.of(), List.of(), List.of(),
                List.of(), List.of(), List.of(), List.of());
    }

    /**
     * The measured ceiling for an access pattern at a level, when the profile has one: not one another pattern's figure
     * stands in for (those are in {@link #levels()} for the model, and say {@link LevelCeiling#takenFrom()}).
     */
    public Optional<LevelCeiling> ceiling(MemoryLevel level, AccessPattern access) {
        return levels.stream().filter(c -> c.level() == level && c.access() == access && !c.standsIn()).findFirst();
    }

    /** The bandwidth entry with this id. */
    public Optional<BandwidthEntry> bandwidthEntry(String bandwidthId) {
        return bandwidth.stream().filter(b -> b.id().equals(bandwidthId)).findFirst();
    }

    /** The compute ceiling of a precision and kind, as the calibrator chose it, when the profile has one. */
    public Optional<FlopCeiling> computeCeiling(Precision precision, ComputeEntry.Kind kind) {
        return computeCeilings.stream().filter(c -> c.precision() == precision && c.kind() == kind).findFirst();
    }

    /**
     * The compute entry a ceiling of that precision and kind is that entry's own figure of (not a fraction of another
     * kind's): what a table of measurements shows as the measured ceiling.
     */
    public Optional<ComputeEntry> measuredComputeCeiling(Precision precision, ComputeEntry.Kind kind) {
        return computeCeiling(precision, kind).filter(FlopCeiling::measuredAsItIs)
                .flatMap(c -> computeEntry(c.computeId()));
    }

    /** The compute entry with this id. */
    public Optional<ComputeEntry> computeEntry(String computeId) {
        return compute.stream().filter(c -> c.id().equals(computeId)).findFirst();
    }

    public Device withBandwidth(List<BandwidthEntry> newBandwidth) {
        return new Device(id, kind, name, memory, unifiedMemoryWith, newBandwidth, levels, threadScaling, latency,
                compute, computeCeilings, tenants, operations, launch, sharing, writeAllocation);
    }

    public Device withLevels(List<LevelCeiling> newLevels) {
        return new Device(id, kind, name, memory, unifiedMemoryWith, bandwidth, newLevels, threadScaling, latency,
                compute, computeCeilings, tenants, operations, launch, sharing, writeAllocation);
    }

    public Device withOperations(List<OperationEntry> newOperations) {
        return new Device(id, kind, name, memory, unifiedMemoryWith, bandwidth, levels, threadScaling, latency,
                compute, computeCeilings, tenants, newOperations, launch, sharing, writeAllocation);
    }

    /** This device with {@code newLaunch} as its launch figure. */
    public Device withLaunch(LaunchEntry newLaunch) {
        return new Device(id, kind, name, memory, unifiedMemoryWith, bandwidth, levels, threadScaling, latency,
                compute, computeCeilings, tenants, operations, newLaunch, sharing, writeAllocation);
    }

    /** This device with {@code newSharing} as its sharing curve. */
    public Device withSharing(List<SharingEntry> newSharing) {
        return new Device(id, kind, name, memory, unifiedMemoryWith, bandwidth, levels, threadScaling, latency,
                compute, computeCeilings, tenants, operations, launch, newSharing, writeAllocation);
    }

    /**
     * This device with {@code newCompute} as its compute entries; a compute ceiling whose entry is gone goes with it
     * (nothing is chosen again here: the calibrator's rule chooses ceilings).
     */
    public Device withCompute(List<ComputeEntry> newCompute) {
        Set<String> kept = newCompute.stream().map(ComputeEntry::id).collect(Collectors.toSet());
        return new Device(id, kind, name, memory, unifiedMemoryWith, bandwidth, levels, threadScaling, latency,
                newCompute, computeCeilings.stream().filter(c -> kept.contains(c.computeId())).toList(), tenants,
                operations, launch, sharing, writeAllocation);
    }

    /** This device with {@code newCeilings} as its compute ceilings. */
    public Device withComputeCeilings(List<FlopCeiling> newCeilings) {
        return new Device(id, kind, name, memory, unifiedMemoryWith, bandwidth, levels, threadScaling, latency,
                compute, newCeilings, tenants, operations, launch, sharing, writeAllocation);
    }

    /** This device with {@code newWriteAllocation} as what its hardware-byte figures assume. */
    public Device withWriteAllocation(WriteAllocation newWriteAllocation) {
        return new Device(id, kind, name, memory, unifiedMemoryWith, bandwidth, levels, threadScaling, latency,
                compute, computeCeilings, tenants, operations, launch, sharing, newWriteAllocation);
    }

    /**
     * The memory a device uses.
     *
     * @param capacityBytes what the device can address, if known (a DGX Spark: 128 GB, CUDA reports ~119.7 GB)
     * @param technology    "LPDDR5x", "HBM3e", ..., if known
     * @param provenance    where the capacity came from, when it is given
     */
    public record Memory(Long capacityBytes, String technology, Provenance provenance) {
        public Memory {
            Checks.optionalPositive("memory.capacityBytes", capacityBytes);
            Checks.optionalText("memory.technology", technology);
            if (capacityBytes != null) {
                Checks.present("memory.provenance", provenance);
            }
        }
    }
}
