package membound.model.machine;

import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

import membound.vocabulary.BadInputException;

/**
 * How a unified memory's bandwidth divides between the GPU and CPU threads streaming at the same time, as the GPU
 * suite measured it (GPU Triad while 0, half and all CPU threads stream Triad): the GPU's share of its own Triad for a
 * number of CPU threads, linear between the measured points and flat beyond the last, and what the CPU's threads got
 * while the GPU streamed.
 *
 * @param gpuShareByCpuThreads the GPU's Triad with that many CPU threads streaming over its Triad alone; has 0 → 1
 * @param cpuThreads           the CPU threads the CPU's figure was measured on
 * @param cpuBytesPerSecondWhileGpuStreams the CPU's Triad on them while the GPU streamed, NaN where not measured
 * @param source               where it was measured
 */
public record SharingCurve(NavigableMap<Integer, Double> gpuShareByCpuThreads, int cpuThreads,
                           double cpuBytesPerSecondWhileGpuStreams, String source) {

    public SharingCurve {
        if (gpuShareByCpuThreads == null || !gpuShareByCpuThreads.containsKey(0) || gpuShareByCpuThreads.size() < 2) {
            throw new BadInputException("a sharing curve needs the GPU alone (0 CPU threads) and at least one point with "
                    + "CPU threads streaming: points=" + gpuShareByCpuThreads);
        }
        for (Map.Entry<Integer, Double> point : gpuShareByCpuThreads.entrySet()) {
            if (point.getKey() < 0 || !(point.getValue() > 0)) {
                throw new BadInputException("sharing points must have 0 or more threads and a positive share: "
                        + point.getKey() + "=" + point.getValue());
            }
        }
        gpuShareByCpuThreads = java.util.Collections.unmodifiableNavigableMap(new TreeMap<>(gpuShareByCpuThreads));
    }

    /** The GPU's share of its bandwidth while {@code threads} CPU threads stream. */
    public double gpuShare(int threads) {
        if (threads < 0) {
            throw new BadInputException("CPU threads streaming must be 0 or more: threads=" + threads);
        }
        Map.Entry<Integer, Double> below = gpuShareByCpuThreads.floorEntry(threads);
        Map.Entry<Integer, Double> above = gpuShareByCpuThreads.ceilingEntry(threads);
        if (above == null) {
            return below.getValue();
        }
        if (above.getKey().equals(below.getKey())) {
            return below.getValue();
        }
        double t = (threads - below.getKey()) / (double) (above.getKey() - below.getKey());
        return below.getValue() + t * (above.getValue() - below.getValue());
    }

    /** The measured points, as a note prints them. */
    public String describe() {
        StringBuilder s = new StringBuilder();
        for (Map.Entry<Integer, Double> point : gpuShareByCpuThreads.entrySet()) {
            if (point.getKey() > 0) {
                s.append(s.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.0f%% with %d CPU threads",
                        100 * point.getValue(), point.getKey()));
            }
        }
        return s.toString();
    }
}
