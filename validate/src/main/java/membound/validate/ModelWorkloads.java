package membound.validate;

import java.util.Arrays;
import java.util.List;

import membound.benchmarks.training.TransformerShape;
import membound.model.Estimator;
import membound.model.machine.Machine;
import membound.model.roofline.Operation;
import membound.model.training.Checkpointing;
import membound.model.training.Optimizer;
import membound.model.training.StepPlanner;
import membound.model.training.TrainingSetup;
import membound.model.workload.Activation;
import membound.model.workload.Mlp;
import membound.model.workload.Normalization;
import membound.model.workload.PositionEncoding;
import membound.model.workload.Transformer;
import membound.vocabulary.Precision;

/**
 * The model's description of each reference workload, in the model's own types, so that a prediction and a
 * measurement are of one thing: FP32 weights, activations, gradients and AdamW states (no master copy: the
 * weights already are FP32), one micro-batch per step, no checkpointing, attention without FlashAttention
 * (the workload materializes its scores), one device.
 */
public final class ModelWorkloads {

    private ModelWorkloads() {
    }

    /** A one-step FP32 AdamW setup of {@code sequence} × {@code microBatch} tokens (samples for an MLP). */
    public static TrainingSetup setup(int sequence, int microBatch, int tenants) {
        return TrainingSetup.builder().precision(Precision.FP32).optimizerStatePrecision(Precision.FP32)
                .masterWeights(false).optimizer(Optimizer.ADAMW).checkpointing(Checkpointing.NONE)
                .flashAttention(false).sequenceLength(sequence).microBatchSize(microBatch).gradientAccumulation(1)
                .tenants(tenants).steps(1).build();
    }

    /** Workload 1 (and each tenant of workload 4): the optimizer step alone over {@code parameters}. */
    public static List<Operation> optimizer(long parameters) {
        return StepPlanner.optimizerStep(setup(1, 1, 1), parameters);
    }

    /** Workload 2: the MLP of {@code MlpTraining}: ReLU between layers, no biases; its tokens are samples. */
    public static Mlp mlp(int[] widths) {
        return new Mlp("mlp-" + String.join("x", Arrays.stream(widths).mapToObj(String::valueOf).toList()),
                "membound validate workload", Arrays.stream(widths).boxed().toList(), Activation.RELU, false);
    }

    /** The operations of one MLP step: forward, backward, optimizer. */
    public static List<Operation> mlpStep(int[] widths, int batch, Machine machine) {
        return Estimator.plan(mlp(widths), setup(1, batch, 1), machine).operations();
    }

    /**
     * Workload 3: the one-layer language model of {@code TransformerTraining}: multi-head attention, GELU MLP,
     * RMSNorm, learned positions, untied embeddings, no biases, no dropout.
     */
    public static Transformer transformer(TransformerShape shape) {
        return Transformer.builder("transformer-1-layer-" + shape).source("membound validate workload")
                .vocabularySize(shape.vocabulary()).hiddenSize(shape.hidden()).layers(1).multiHead(shape.heads())
                .intermediateSize(shape.intermediate()).activation(Activation.GELU)
                .normalization(Normalization.RMS_NORM).positions(PositionEncoding.LEARNED)
                .maxPositions(shape.sequence()).tiedEmbeddings(false).build();
    }

    /** The operations of one transformer step: forward, backward, optimizer. */
    public static List<Operation> transformerStep(TransformerShape shape, Machine machine) {
        return Estimator.plan(transformer(shape), setup(shape.sequence(), shape.batch(), 1), machine).operations();
    }
}
