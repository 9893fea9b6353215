package membound.model.decode;

import java.util.List;

import membound.model.OperationRow;
import membound.model.memory.MemoryFootprint;
import membound.model.roofline.CeilingLine;

/**
 * Decode on measured and datasheet ceilings.
 *
 * @param tokensPerSecond tokens generated per second over the whole batch
 * @param weightBytesPerStep weight bytes one decode step reads (MoE: only the experts the batch touches)
 * @param kvCacheBytesPerStep KV-cache bytes one step reads (every sequence's context)
 * @param bytesPerToken (weight + KV-cache bytes per step) / batch
 * @param memoryBoundShare fraction of a step in bandwidth-bound operations
 * @param prefillSeconds time to first token: the prompt's forward pass
 * @param datasheetStepSeconds the step on datasheet ceilings; the datasheet figures are NaN when the machine has none
 *        (the notes say why)
 */
public record DecodePrediction(String workload, String machine, DecodeSetup setup, String weightsSource,
                               double stepSeconds, double tokensPerSecond, double datasheetStepSeconds,
                               double datasheetTokensPerSecond, double datasheetDifference, double weightBytesPerStep,
                               double kvCacheBytesPerStep, double bytesPerToken, double memoryBoundShare,
                               double halfBandwidthTokensPerSecond, double doubleBandwidthTokensPerSecond,
                               double prefillSeconds, double datasheetPrefillSeconds, MemoryFootprint memory,
                               List<OperationRow> operations, List<CeilingLine> measuredCeilings, List<String> notes) {

    public DecodePrediction {
        operations = List.copyOf(operations);
        measuredCeilings = List.copyOf(measuredCeilings);
        notes = List.copyOf(notes);
    }

    /** True when most of a step is spent waiting on memory: bandwidth, not FLOPs, decides tokens per second. */
    public boolean bandwidthBound() {
        return memoryBoundShare > 0.5;
    }
}
