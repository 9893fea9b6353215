package membound.model.memory;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * Bytes one device holds, by category, against its capacity. Optimizer states include FP32 master
 * weights (as ZeRO counts them). {@code hostBytes} is what offloading moved to host memory.
 *
 * @param advice changes that would make a configuration fit, each with the footprint it would have;
 *        empty when it fits, and when nothing the advisor tried fits
 */
// The derived figures after the components, always: without an order Jackson lists them in the order reflection
// returns the methods, which the JVM does not fix (predict's JSON came out with "fits" first in some runs).
@JsonPropertyOrder({"weightsBytes", "gradientsBytes", "optimizerStatesBytes", "activationsBytes", "kvCacheBytes",
        "workspaceBytes", "capacityBytes", "capacitySource", "hostBytes", "advice", "totalBytes", "fits"})
public record MemoryFootprint(double weightsBytes, double gradientsBytes, double optimizerStatesBytes,
                              double activationsBytes, double kvCacheBytes, double workspaceBytes,
                              double capacityBytes, String capacitySource, double hostBytes, List<FitAdvice> advice) {

    public MemoryFootprint {
        advice = advice == null ? List.of() : List.copyOf(advice);
    }

    /** A change of setup (as command-line flags) and the bytes per device it would need. */
    public record FitAdvice(String flags, double totalBytes) {
    }

    @JsonProperty("totalBytes")
    public double totalBytes() {
        return weightsBytes + gradientsBytes + optimizerStatesBytes + activationsBytes + kvCacheBytes + workspaceBytes;
    }

    @JsonProperty("fits")
    public boolean fits() {
        return totalBytes() <= capacityBytes;
    }

    public MemoryFootprint withAdvice(List<FitAdvice> replaced) {
        return new MemoryFootprint(weightsBytes, gradientsBytes, optimizerStatesBytes, activationsBytes, kvCacheBytes,
                workspaceBytes, capacityBytes, capacitySource, hostBytes, replaced);
    }
}
