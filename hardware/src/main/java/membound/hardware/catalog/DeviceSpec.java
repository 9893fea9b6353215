package membound.hardware.catalog;

import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import membound.vocabulary.BadInputException;
import membound.vocabulary.DeviceKind;
import membound.vocabulary.Precision;

/**
 * One device of a platform as its datasheet describes it.
 *
 * @param id                             {@code "gpu"} or {@code "cpu"}
 * @param memoryCapacityBytes            the memory this device addresses directly (on a unified-memory machine,
 *                                       the pool it shares)
 * @param memoryBandwidthBytesPerSecond  nominal bandwidth of that memory
 * @param densePeakFlopsPerSecond        peak per precision without sparsity; a precision that is absent has no
 *                                       published (or checkable) figure
 * @param sparsePeakFlopsPerSecond       peak with 2:4 structured sparsity, only where the device has it
 * @param unifiedMemory                  CPU and GPU share one physical memory, so moving data "to the host"
 *                                       frees nothing
 * @param notes                          what the figures leave out, such as third-party measurements
 */
public record DeviceSpec(String id, String name, DeviceKind kind, Figure memoryCapacityBytes,
                         Figure memoryBandwidthBytesPerSecond, Map<Precision, Figure> densePeakFlopsPerSecond,
                         Map<Precision, Figure> sparsePeakFlopsPerSecond, boolean unifiedMemory, List<String> notes) {

    public DeviceSpec {
        id = PlatformSpec.requireText("id", id);
        name = PlatformSpec.requireText("name", name);
        if (kind == null) {
            throw new BadInputException("kind must be given: kind=null, id=" + id);
        }
        requireUnit("memoryCapacityBytes", memoryCapacityBytes, Figure.BYTES, id);
        requireUnit("memoryBandwidthBytesPerSecond", memoryBandwidthBytesPerSecond, Figure.BYTES_PER_SECOND, id);
        densePeakFlopsPerSecond = peaks("densePeakFlopsPerSecond", densePeakFlopsPerSecond, id);
        sparsePeakFlopsPerSecond = peaks("sparsePeakFlopsPerSecond", sparsePeakFlopsPerSecond, id);
        for (Map.Entry<Precision, Figure> sparse : sparsePeakFlopsPerSecond.entrySet()) {
            Figure dense = densePeakFlopsPerSecond.get(sparse.getKey());
            if (dense != null && sparse.getValue().value() < dense.value()) {
                throw new BadInputException("sparse peak must not be below the dense one: precision="
                        + sparse.getKey() + ", sparse=" + sparse.getValue().value() + ", dense=" + dense.value()
                        + ", id=" + id);
            }
        }
        notes = List.copyOf(notes);
    }

    /** Dense peak at a precision, if published. */
    public Optional<Figure> densePeak(Precision precision) {
        return Optional.ofNullable(densePeakFlopsPerSecond.get(precision));
    }

    /** 2:4 sparse peak at a precision, if the device has sparse throughput there. */
    public Optional<Figure> sparsePeak(Precision precision) {
        return Optional.ofNullable(sparsePeakFlopsPerSecond.get(precision));
    }

    public boolean hasSparseThroughput() {
        return !sparsePeakFlopsPerSecond.isEmpty();
    }

    private static void requireUnit(String name, Figure figure, String unit, String id) {
        if (figure == null || !figure.unit().equals(unit)) {
            throw new BadInputException(name + " must be a " + unit + " figure: " + name + "=" + figure
                    + ", id=" + id);
        }
    }

    private static Map<Precision, Figure> peaks(String name, Map<Precision, Figure> peaks, String id) {
        EnumMap<Precision, Figure> copy = new EnumMap<>(Precision.class);
        copy.putAll(peaks);
        copy.forEach((precision, figure) -> {
            String expected = precision == Precision.INT8 ? Figure.OPS : Figure.FLOPS;
            if (!figure.unit().equals(expected)) {
                throw new BadInputException(name + " must hold " + expected + " figures: precision=" + precision
                        + ", unit=" + figure.unit() + ", id=" + id);
            }
        });
        return Collections.unmodifiableMap(copy);
    }
}
