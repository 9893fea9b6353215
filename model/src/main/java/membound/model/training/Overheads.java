package membound.model.training;

import java.util.List;

import membound.model.roofline.Kernel;
import membound.model.roofline.Operation;
import membound.model.roofline.OperationClass;
import membound.model.roofline.Placement;
import membound.model.roofline.Roofline;

/**
 * What a per-operation roofline misses in a training step, as seven terms applied to its evaluation:
 * <ul>
 *   <li>{@code computeEfficiency}: the fraction of the basis's GEMM ceiling a trainer's forward, backward and
 *   recompute kernels reach on compute-bound operations (the roofline charges them at the ceiling; attention
 *   kernels slower than the GEMM ceiling and wave quantization land here);</li>
 *   <li>{@code lowPrecisionComputeEfficiency}: the same for GEMMs in 8 bits or fewer (FP8, FP4, INT8): their
 *   scaling, casts and amax bookkeeping are not operations of the plan, and the FP8 recipes trainers use differ;</li>
 *   <li>{@code attentionEfficiency}: the same for the fused attention kernels, against the ceiling's documented
 *   FlashAttention fraction of the GEMM rate (which FlashAttention generation a trainer runs on which GPU differs);</li>
 *   <li>{@code memoryEfficiency}: the fraction of the basis's memory bandwidth the memory-bound elementwise kernels
 *   of the forward, backward and recompute passes reach (unfused norms, activations, residual adds): a trainer that
 *   fuses them moves fewer bytes than the roofline counts, one that does not reaches less than the STREAM-like
 *   ceiling. The optimizer step is not among them: a fused or multi-tensor AdamW is one streaming update over the
 *   parameters and their states, which the roofline already charges at the basis's update ceiling, and the published
 *   rows, their optimizer sharded over 8 to 8,192 GPUs, cannot tell its efficiency (a single-GPU fine-tune, where it
 *   is a large share of the step, took the passes' 0.23 and ran its optimizer four times slower than its
 *   bandwidth). Nor are memory-bound GEMMs and attention kernels: a GEMM over few rows (LoRA on short sequences, a
 *   frozen 8B model streamed at batch 1) reads its weights at the rate the roofline charges, as decode's GEMMs do;
 *   the unfused-elementwise term made such a step four times slower than its weight traffic;</li>
 *   <li>{@code expertEfficiency}: the same for the routed experts' GEMMs of a mixture of experts, in any precision:
 *   grouped GEMMs over many narrow matrices, each with its own share of the tokens, reach less of the ceiling than a
 *   dense layer's one GEMM (and a trainer's MoE kernels differ more between its releases than its dense ones), under
 *   either dispatcher ({@link MoeDispatcher});</li>
 *   <li>{@code alltoallDispatchSeconds}: a fixed cost per forward dispatch under Megatron-Core's all-to-all token
 *   dispatcher ({@link MoeDispatcher#ALLTOALL}): it reads each MoE layer's token counts back to the host before the
 *   exchange (Megatron-LM megatron/core/transformer/moe/token_dispatcher.py, MoEAlltoAllTokenDispatcher's
 *   cuda_sync_point), a synchronisation that takes away the host's lead, so the GPU then waits on the host as it
 *   issues the layer's permutes, exchange and grouped GEMMs one by one. That wait is host time, the same on a fast GPU
 *   as on a slow one, so it is a time per dispatch (forward and recompute: the backward exchange reuses the known
 *   split sizes), not a fraction of the experts' GEMM time; their GEMMs take {@code expertEfficiency} under either
 *   dispatcher;</li>
 *   <li>{@code perOperationSeconds}: a fixed cost per operation run (kernel launch, Python dispatch, the
 *   synchronisation between them, an FSDP gather's wait), times every operation's count in the step.</li>
 * </ul>
 * None is measured by the CPU or GPU suites today; they are fitted on the fit rows of the published set, per
 * trainer ({@code membound validate --published} prints their values and the rows; {@code
 * membound.model.trainer.Trainer} carries them into {@code predict}). {@link #NONE} leaves the roofline as it is.
 * Cheap: one pass over the evaluation's arrays into a seven-element array.
 */
public record Overheads(double computeEfficiency, double lowPrecisionComputeEfficiency, double attentionEfficiency,
                        double memoryEfficiency, double expertEfficiency, double alltoallDispatchSeconds,
                        double perOperationSeconds, String source) {

    public static final Overheads NONE = new Overheads(1, 1, 1, 1, 1, 0, 0, "none: the roofline alone");

    /** The routed experts' GEMMs at the efficiency of the other GEMMs of their precision. */
    public static final String EXPERT_GEMM_PREFIX = TransformerPass.EXPERT_GEMM_PREFIX;

    public Overheads {
        if (!(computeEfficiency > 0 && computeEfficiency <= 2)) {
            throw new IllegalArgumentException("compute efficiency must be in (0, 2]: computeEfficiency="
                    + computeEfficiency);
        }
        if (!(lowPrecisionComputeEfficiency > 0 && lowPrecisionComputeEfficiency <= 2)) {
            throw new IllegalArgumentException("low-precision compute efficiency must be in (0, 2]: "
                    + "lowPrecisionComputeEfficiency=" + lowPrecisionComputeEfficiency);
        }
        if (!(attentionEfficiency > 0 && attentionEfficiency <= 2)) {
            throw new IllegalArgumentException("attention efficiency must be in (0, 2]: attentionEfficiency="
                    + attentionEfficiency);
        }
        if (!(expertEfficiency > 0 && expertEfficiency <= 2)) {
            throw new IllegalArgumentException("expert efficiency must be in (0, 2]: expertEfficiency="
                    + expertEfficiency);
        }
        if (!(alltoallDispatchSeconds >= 0) || Double.isInfinite(alltoallDispatchSeconds)) {
            throw new IllegalArgumentException("all-to-all dispatch seconds must be >= 0 and finite: "
                    + "alltoallDispatchSeconds=" + alltoallDispatchSeconds);
        }
        if (!(memoryEfficiency > 0 && memoryEfficiency <= 2)) {
            throw new IllegalArgumentException("memory efficiency must be in (0, 2]: memoryEfficiency="
                    + memoryEfficiency);
        }
        if (!(perOperationSeconds >= 0) || Double.isInfinite(perOperationSeconds)) {
            throw new IllegalArgumentException("per-operation seconds must be >= 0 and finite: perOperationSeconds="
                    + perOperationSeconds);
        }
    }

    /** Compute (at every GEMM precision) and per-operation terms only: attention and memory-bound kernels at the ceiling. */
    public Overheads(double computeEfficiency, double perOperationSeconds, String source) {
        this(computeEfficiency, computeEfficiency, 1, 1, computeEfficiency, 0, perOperationSeconds, source);
    }

    /** Without a term of the experts' own: their GEMMs at the ceiling. */
    public Overheads(double computeEfficiency, double lowPrecisionComputeEfficiency, double attentionEfficiency,
                     double memoryEfficiency, double perOperationSeconds, String source) {
        this(computeEfficiency, lowPrecisionComputeEfficiency, attentionEfficiency, memoryEfficiency, 1, 0,
                perOperationSeconds, source);
    }

    /** Seconds the terms add to a step whose roofline evaluation is {@code eval} (of {@code operations}). */
    public double addedSeconds(List<Operation> operations, Roofline.Evaluation eval) {
        return addedSeconds(operations, eval, 1);
    }

    /**
     * The same in a pipeline whose pacing stage's passes take {@code passScale} of their time (1 plus its bubble,
     * {@link membound.model.Estimator#passScale}): what slows the passes slows the bubble as much.
     */
    public double addedSeconds(List<Operation> operations, Roofline.Evaluation eval, double passScale) {
        return addedSeconds(operations, eval, passScale, MoeDispatcher.FUSED);
    }

    /** The same, the routed experts dispatched as {@code dispatcher} does. */
    public double addedSeconds(List<Operation> operations, Roofline.Evaluation eval, double passScale,
                               MoeDispatcher dispatcher) {
        double sum = 0;
        for (double seconds : addedByTerm(parts(operations, eval, passScale, dispatcher))) {
            sum += seconds;
        }
        return sum;
    }

    /**
     * What each term adds to a step whose {@link #parts} are {@code parts}, in the order of {@link #TERMS}: an
     * efficiency scales its seconds by 1/e - 1 (less than nothing above 1), a cost per run multiplies its count.
     */
    public double[] addedByTerm(double[] parts) {
        double[] values = values();
        double[] added = new double[values.length];
        for (int term = 0; term < values.length; term++) {
            added[term] = added(term, parts[term], values[term]);
        }
        return added;
    }

    /** The terms' values in the order of {@link #TERMS}: the efficiencies, then the costs per run in seconds. */
    public double[] values() {
        return new double[] {computeEfficiency, lowPrecisionComputeEfficiency, attentionEfficiency, memoryEfficiency,
            expertEfficiency, alltoallDispatchSeconds, perOperationSeconds};
    }

    /** What term {@code term} at {@code value} adds to a step whose {@link #parts} entry for it is {@code part}. */
    public static double added(int term, double part, double value) {
        return term >= FIRST_PER_RUN_TERM ? part * value : part * (1 / value - 1);
    }

    /** The terms' names as trainers.tsv and validate --published print them, in the order of {@link #parts}. */
    public static final List<String> TERMS = List.of("compute-efficiency", "fp8-compute-efficiency",
            "attention-efficiency", "memory-efficiency", "expert-efficiency", "alltoall-dispatch", "per-operation");

    /** The index of the first term that is a cost per counted run (seconds); those before it are efficiencies. */
    public static final int FIRST_PER_RUN_TERM = 5;

    /**
     * What the terms scale, summed over a step: compute-bound forward/backward/recompute seconds of GEMMs (16 bits
     * and wider, then 8 bits and narrower) and of fused attention kernels (the ceiling's fixed fraction of the GEMM
     * rate, scaled by the trainer's own), memory-bound elementwise device seconds of the forward, backward and
     * recompute passes (not the optimizer step, not memory-bound GEMMs), compute-bound seconds of the routed
     * experts' GEMMs, forward and recompute dispatches under the all-to-all dispatcher (none on a fused path), and
     * operation runs (every device kernel's count). A fit evaluates the roofline once and these numbers give the step
     * at any terms.
     */
    public static double[] parts(List<Operation> operations, Roofline.Evaluation eval) {
        return parts(operations, eval, 1, MoeDispatcher.FUSED);
    }

    /**
     * The same, the forward, backward and recompute rows counted {@code passScale} times (a pipeline's bubble), the
     * routed experts dispatched as {@code dispatcher} does.
     */
    public static double[] parts(List<Operation> operations, Roofline.Evaluation eval, double passScale,
                                 MoeDispatcher dispatcher) {
        double computeBound = 0;
        double lowPrecision = 0;
        double attention = 0;
        double memoryBoundSeconds = 0;
        double experts = 0;
        double runs = 0;
        double dispatches = 0;
        double[] seconds = eval.seconds();
        boolean[] memoryBound = eval.memoryBound();
        for (int i = 0; i < seconds.length; i++) {
            Operation op = operations.get(i);
            if (op.kernel() == Kernel.TRANSFER) {
                continue;
            }
            OperationClass c = op.operationClass();
            boolean pass = c == OperationClass.FORWARD || c == OperationClass.BACKWARD || c == OperationClass.RECOMPUTE;
            double scale = pass ? passScale : 1;
            runs += op.count() * scale;
            if ((c == OperationClass.FORWARD || c == OperationClass.RECOMPUTE)
                    && TransformerPass.EXPERT_DISPATCH.equals(op.name())) {
                dispatches += op.count() * scale;
            }
            if (!memoryBound[i] && pass && op.kernel() == Kernel.ATTENTION) {
                attention += seconds[i] * scale;
            } else if (!memoryBound[i] && pass && op.kernel() == Kernel.GEMM && op.name() != null
                    && op.name().startsWith(EXPERT_GEMM_PREFIX)) {
                experts += seconds[i] * scale;
            } else if (!memoryBound[i] && pass && op.precision().bits() <= 8) {
                lowPrecision += seconds[i] * scale;
            } else if (!memoryBound[i] && pass) {
                computeBound += seconds[i] * scale;
            } else if (memoryBound[i] && op.placement() == Placement.DEVICE && pass
                    && op.kernel() == Kernel.ELEMENTWISE) {
                memoryBoundSeconds += seconds[i] * scale;
            }
        }
        boolean alltoall = dispatcher == MoeDispatcher.ALLTOALL;
        return new double[] {computeBound, lowPrecision, attention, memoryBoundSeconds, experts,
            alltoall ? dispatches : 0, runs};
    }
}
