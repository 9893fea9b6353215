package membound.model.decode;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import membound.model.Estimator;
import membound.model.machine.Basis;
import membound.model.machine.ComputeCeiling;
import membound.model.machine.Machine;
import membound.model.memory.MemoryFootprint;
import membound.model.memory.MemoryModel;
import membound.model.roofline.Ceilings;
import membound.model.roofline.Operation;
import membound.model.roofline.OperationList;
import membound.model.roofline.Roofline;
import membound.model.training.Checkpointing;
import membound.model.training.FineTuning;
import membound.model.training.TransformerPass;
import membound.model.workload.ParameterCounts;
import membound.model.workload.Transformer;

/**
 * Inference on the same per-operation roofline: a decode step is a forward pass of one token per
 * sequence that streams every weight the batch needs and every sequence's KV cache; the prompt's
 * prefill is a forward pass over all its tokens. With batch 1 every weight is read for one token,
 * which is why bandwidth, not FLOPs, sets the tokens per second of local inference.
 */
public final class DecodeEstimator {

    private DecodeEstimator() {
    }

    public static DecodePrediction predict(Transformer tf, DecodeSetup asGiven, Machine machine) {
        return predict(tf, asGiven, machine, KernelCost.NONE);
    }

    /** As {@link #predict(Transformer, DecodeSetup, Machine)}, each step paying an engine's fixed kernel cost. */
    public static DecodePrediction predict(Transformer tf, DecodeSetup asGiven, Machine machine, KernelCost cost) {
        // A llama.cpp mix takes its per-tensor types from this model's shapes.
        DecodeSetup setup = asGiven.withWeights(asGiven.weights().resolve(tf));
        List<Operation> step = decodeStep(tf, setup);
        List<Operation> prefill = prefill(tf, setup);
        int tenants = setup.tenants();
        Ceilings measured = Ceilings.of(machine, Basis.MEASURED, tenants, null);
        Ceilings datasheet = Ceilings.of(machine, Basis.DATASHEET, tenants, null);
        Roofline.Evaluation eval = Roofline.evaluate(step, measured);
        double seconds = seconds(step, eval, measured, cost);
        double memoryBound = 0;
        for (int i = 0; i < step.size(); i++) {
            memoryBound += eval.memoryBound()[i] ? eval.seconds()[i] : 0;
        }
        Optional<String> datasheetUnknown = machine.datasheetUnknown(setup.compute());
        double datasheetSeconds = datasheetUnknown.isPresent() ? Double.NaN
                : seconds(step, Roofline.evaluate(step, datasheet), datasheet, cost);
        Ceilings halfBandwidth = measured.withBandwidthScale(0.5);
        Ceilings twiceBandwidth = measured.withBandwidthScale(2);
        double half = seconds(step, Roofline.evaluate(step, halfBandwidth), halfBandwidth, cost);
        double twice = seconds(step, Roofline.evaluate(step, twiceBandwidth), twiceBandwidth, cost);
        double batch = setup.batch();

        ParameterCounts counts = tf.parameters();
        double touchedFraction = tf.experts().sparse()
                ? tf.experts().expertsTouched(batch) / tf.experts().experts() : 1;
        double weightBytes = setup.weights().bytes(counts, touchedFraction, false);
        double kvBytes = MemoryModel.kvCacheBytes(tf, batch, setup.contextTokens(), setup.kvCache().bytesPerElement());

        MemoryFootprint memory = MemoryModel.decode(tf, setup.weights().bytes(counts, 1, true), batch,
                setup.contextTokens(), setup.kvCache().bytesPerElement(), setup.compute().bytesPerElement(), machine);
        List<String> notes = new ArrayList<>(machine.notes());
        datasheetUnknown.ifPresent(notes::add);
        notes.add("weights are dequantized inside the GEMM kernels (as llama.cpp does): bytes at "
                + setup.weights().name() + ", arithmetic in " + setup.compute().label());
        if (!setup.weights().isUniform()) {
            notes.add("weights per tensor kind: " + setup.weights().describeKinds(counts));
        }
        if (tf.experts().sparse()) {
            notes.add(String.format(java.util.Locale.ROOT, "mixture of experts: a step of batch %d reads %.1f of %d experts per layer "
                    + "(expected distinct experts under uniform routing)", setup.batch(),
                    tf.experts().expertsTouched(batch), tf.experts().experts()));
        }
        ComputeCeiling ceiling = machine.device().computeFor(setup.compute());
        if (ceiling != null && ceiling.precision() != setup.compute()) {
            notes.add(machine.device().name() + " has no " + setup.compute().label() + " compute ceiling: runs at its "
                    + ceiling.precision().label() + " rate");
        }
        if (cost.present()) {
            double launch = measured.kernelLaunchSeconds();
            notes.add(String.format(java.util.Locale.ROOT, "fixed cost per step: %.0f kernels x %.2f us = %.2f ms "
                    + "(%s%s), %.1f%% of the step", cost.kernelsPerStep(), Math.max(cost.secondsPerKernel(), launch) * 1e6,
                    cost.seconds(launch) * 1e3, cost.source(), launch > cost.secondsPerKernel()
                            ? "; the device's measured launch interval, above the engine's cost per kernel" : "",
                    100 * cost.seconds(launch) / seconds));
        }
        if (!memory.fits()) {
            notes.add("does not fit: lower --weights bits, a shorter --context, a smaller --batch or a KV cache in fp8");
        }
        return new DecodePrediction(tf.name(), machine.id(), setup, setup.weights().source(), seconds, batch / seconds,
                datasheetSeconds, batch / datasheetSeconds, (datasheetSeconds - seconds) / seconds, weightBytes, kvBytes,
                (weightBytes + kvBytes) / batch, memoryBound / seconds, batch / half, batch / twice,
                seconds(prefill, Roofline.evaluate(prefill, measured), measured, KernelCost.NONE),
                datasheetUnknown.isPresent() ? Double.NaN
                        : seconds(prefill, Roofline.evaluate(prefill, datasheet), datasheet, KernelCost.NONE),
                memory, Estimator.rows(step, eval),
                Ceilings.describe(machine, Basis.MEASURED, setup.compute(), null, tenants), notes);
    }

    /** One decode step: every sequence in the batch adds one token at the given context length. */
    public static List<Operation> decodeStep(Transformer tf, DecodeSetup setup) {
        OperationList ops = new OperationList();
        TransformerPass.Shape shape = new TransformerPass.Shape(setup.batch(), 1, setup.contextTokens(), false, true, false);
        TransformerPass.append(tf, shape, settings(setup), tf.layers(), 1, true, true, ops);
        return ops.operations();
    }

    /** The prompt's forward pass, writing the KV cache; logits only for each sequence's last token. */
    public static List<Operation> prefill(Transformer tf, DecodeSetup setup) {
        OperationList ops = new OperationList();
        int prompt = setup.promptTokens();
        TransformerPass.Shape shape = new TransformerPass.Shape(setup.batch(), prompt, prompt, true, false, true);
        TransformerPass.append(tf, shape, settings(setup), tf.layers(), 1, true, false, ops);
        TransformerPass.Shape last = new TransformerPass.Shape(setup.batch(), 1, prompt, false, false, false);
        TransformerPass.append(tf, last, settings(setup), 0, 1, false, true, ops);
        return ops.operations();
    }

    private static TransformerPass.Settings settings(DecodeSetup setup) {
        double e = setup.compute().bytesPerElement();
        return new TransformerPass.Settings(false, setup.compute(), e, setup.weights().bitsPerWeight(), false, e, false,
                FineTuning.full(), e, false, 1, true, Checkpointing.NONE, setup.kvCache().bytesPerElement(),
                setup.weights().overriddenBits());
    }

    /**
     * The operations' roofline seconds plus the engine's fixed kernel cost where one is given; else what kernel launches
     * add where the device has a measured launch interval (each repetition takes at least one launch: a decode step of
     * short kernels can be launch-bound).
     */
    private static double seconds(List<Operation> operations, Roofline.Evaluation eval, Ceilings ceilings,
                                  KernelCost cost) {
        double total = sum(eval.seconds());
        double launch = ceilings.kernelLaunchSeconds();
        if (cost.present()) {
            // The engine's kernels, not the roofline's operations, pay the boundaries.
            return total + cost.seconds(launch);
        }
        if (launch > 0) {
            for (int i = 0; i < operations.size(); i++) {
                total += Estimator.launchBoundSeconds(operations.get(i), eval.seconds()[i], launch);
            }
        }
        return total;
    }

    private static double sum(double[] values) {
        double total = 0;
        for (double v : values) {
            total += v;
        }
        return total;
    }
}
