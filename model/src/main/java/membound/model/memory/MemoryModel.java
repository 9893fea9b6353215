package membound.model.memory;

import java.util.List;

import membound.model.Defaults;
import membound.model.machine.Machine;
import membound.model.training.Checkpointing;
import membound.model.training.Parallelism;
import membound.model.training.StepPlan;
import membound.model.training.TrainingSetup;
import membound.model.workload.Mlp;
import membound.model.workload.Transformer;
import membound.vocabulary.DeviceKind;

/** What one device holds while training or decoding, by category. */
public final class MemoryModel {

    private MemoryModel() {
    }

    /**
     * Training footprint of one device. ZeRO stage 1 shards optimizer states over the data-parallel
     * replicas, stage 2 also gradients, stage 3 also weights (Rajbhandari et al. 2020). Pipeline
     * stages under 1F1B keep min(p, m) micro-batches of activations for L/p layers each: at most
     * L layers' worth (Korthikanti et al., section 4.2.3).
     */
    public static MemoryFootprint training(StepPlan plan, Machine machine) {
        TrainingSetup setup = plan.setup();
        Parallelism par = setup.parallelism();
        // ZeRO shards over the data x context parallel ranks (the hybrid shard group; the experts over their own).
        double d = plan.shardDivisor();
        double e = setup.storedActivationPrecision().bytesPerElement();
        double g = setup.gradientPrecision().bytesPerElement();
        double w = setup.weightPrecision().bytesPerElement();

        double baseWeights = plan.parametersOnDevice() * plan.weightBitsPerParameter() / 8;
        if (par.zeroStage() == 3) {
            baseWeights /= d;
        }
        double adapters = setup.fineTuning().adapters() ? plan.trainableOnDevice() * w : 0;
        double gradients = plan.trainableOnDevice() * g / (par.zeroStage() >= 2 ? d : 1);
        double states = plan.trainableOnDevice()
                * (setup.optimizer().stateBytesPerParameter(setup.optimizerStatePrecision())
                + (setup.keepsMasterWeights() ? 4 : 0))
                / (par.zeroStage() >= 1 ? d : 1);
        double host = 0;
        if (plan.offloadsOptimizer()) {
            host += states;
            states = 0;
        }
        double weights = baseWeights + adapters;
        if (plan.offloadsWeights() && plan.workload() instanceof Transformer tf) {
            // Two layers stay resident: the one computing and the one being fetched.
            double resident = Math.min(baseWeights, 2 * baseWeights / tf.layers());
            host += baseWeights - resident;
            weights = resident + adapters;
        }

        double activations = activations(plan, setup, e);
        double workspace = machine.device().kind() == DeviceKind.GPU ? Defaults.GPU_RUNTIME_RESERVE_BYTES : 0;
        return new MemoryFootprint(weights, gradients, states, activations, 0, workspace,
                machine.device().capacityBytes(), machine.device().capacitySource(), host, List.of());
    }

    private static double activations(StepPlan plan, TrainingSetup setup, double e) {
        Parallelism par = setup.parallelism();
        if (plan.workload() instanceof Transformer tf) {
            double b = setup.microBatchSize();
            // Context parallelism: each device keeps the activations of its share of the sequence.
            double s = (double) setup.sequenceLength() / par.contextParallel();
            int t = par.tensorParallel();
            int p = par.pipelineParallel();
            double inFlight = Math.min(p, setup.gradientAccumulation());
            double layersKept = membound.model.training.StepPlanner.stageLayers(tf, p) * inFlight;
            double perLayer = ActivationMemory.perLayerBytes(tf, b, s, e, setup.checkpointing(), setup.flashAttention(), t);
            double total = perLayer * layersKept + ActivationMemory.outsideLayersBytes(tf, b, s, e, t);
            if (setup.checkpointing() == Checkpointing.FULL) {
                // The layer being recomputed holds its full activations while its backward runs.
                total += ActivationMemory.perLayerBytes(tf, b, s, e, Checkpointing.NONE, setup.flashAttention(), t);
            }
            return total;
        }
        Mlp mlp = (Mlp) plan.workload();
        double rows = setup.tokensPerMicroBatch();
        double total = 0;
        for (int i = 0; i < mlp.linearLayers(); i++) {
            // Each linear layer's input, and the activation's input behind it.
            total += rows * (mlp.widths().get(i) + mlp.widths().get(i + 1)) * e;
        }
        return setup.checkpointing() == Checkpointing.FULL ? rows * mlp.widths().get(0) * e + total / mlp.linearLayers()
                : total;
    }

    /**
     * Decode footprint: all weights ({@code weightBytes}, every expert: any may be chosen), the
     * KV cache of every sequence at the context length (sliding-window layers cap it at the
     * window), and per-step activations (the FP32 logits dominate).
     */
    public static MemoryFootprint decode(Transformer tf, double weightBytes, double batch, double context,
                                         double kvBytesPerElement, double activationBytes, Machine machine) {
        double weights = weightBytes;
        double kv = kvCacheBytes(tf, batch, context, kvBytesPerElement);
        double activations = batch * ((double) tf.vocabularySize() * Defaults.FP32_BYTES
                + (4.0 * tf.hiddenSize() + 3.0 * mlpWidthPerToken(tf)) * activationBytes);
        double workspace = machine.device().kind() == DeviceKind.GPU ? Defaults.GPU_RUNTIME_RESERVE_BYTES : 0;
        return new MemoryFootprint(weights, 0, 0, activations, kv, workspace, machine.device().capacityBytes(),
                machine.device().capacitySource(), 0, List.of());
    }

    /**
     * Elements cached per token and layer (2 x KV heads x head dimension; latent attention's latent and
     * rotary key) x tokens kept over the layers x bytes, per sequence, times batch.
     */
    public static double kvCacheBytes(Transformer tf, double batch, double context, double kvBytesPerElement) {
        int sliding = tf.slidingWindow().layers();
        double kept = (tf.layers() - sliding) * context + sliding * Math.min(context, tf.slidingWindow().tokens());
        return batch * tf.kvCacheElementsPerToken() * kept * kvBytesPerElement;
    }

    /** MLP width one token goes through: its routed experts and the shared ones, or the dense MLP. */
    public static double mlpWidthPerToken(Transformer tf) {
        if (!tf.experts().sparse()) {
            return tf.intermediateSize();
        }
        return (double) tf.experts().expertWidth() * tf.experts().expertsPerToken() + tf.experts().sharedWidth();
    }
}
