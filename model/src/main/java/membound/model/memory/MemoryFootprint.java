package membound.model.memory;

import java.util.List;

/**
 * Bytes one device holds, by category, against its capacity. Optimizer states include FP32 master
 * weights (as ZeRO counts them). {@code hostBytes} is what offloading moved to host memory.
 *
 * @param advice changes that would make a configuration fit, each with the footprint it would have;
 *        empty when it fits
 */
public record MemoryFootprint(double weightsBytes, double gradientsBytes, double optimizerStatesBytes,
                              double activationsBytes, double kvCacheBytes, double workspaceBytes,
                              double capacityBytes, String capacitySource, double hostBytes, List<String> advice) {

    public MemoryFootprint {
        advice = advice == null ? List.of() : List.copyOf(advice);
    }

    public double totalBytes() {
        return weightsBytes + gradientsBytes + optimizerStatesBytes + activationsBytes + kvCacheBytes + workspaceBytes;
    }

    public boolean fits() {
        return totalBytes() <= capacityBytes;
    }

    public MemoryFootprint withAdvice(List<String> replaced) {
        return new MemoryFootprint(weightsBytes, gradientsBytes, optimizerStatesBytes, activationsBytes, kvCacheBytes,
                workspaceBytes, capacityBytes, capacitySource, hostBytes, replaced);
    }
}
