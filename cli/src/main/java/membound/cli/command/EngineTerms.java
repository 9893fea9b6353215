package membound.cli.command;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import membound.model.decode.DecodeEstimator;
import membound.model.decode.DecodePrediction;
import membound.model.decode.DecodeSetup;
import membound.model.decode.KernelCost;
import membound.model.engine.Engine;
import membound.model.engine.EngineKernels;
import membound.model.engine.EnginePrefill;
import membound.model.machine.Basis;
import membound.model.roofline.Ceilings;
import membound.model.machine.Ceiling;
import membound.model.machine.Machine;
import membound.model.machine.Machines;
import membound.model.workload.Transformer;
import membound.validate.published.PublishedSet;
import membound.validate.published.PublishedValidation;

/**
 * {@code predict --decode --engine E}: the engine's GEMM precision for the weights (engines.tsv) and the terms
 * {@code validate --published} fits for it on the published set's fit rows (decode bandwidth efficiency, prefill
 * GEMM efficiency), applied as a scaled machine whose note names the values and the rows. An engine the set has
 * no fit rows for keeps the roofline at the ceilings, and says so.
 */
record EngineTerms(Engine engine, List<PublishedValidation.Term> terms) {

    static EngineTerms of(String name) {
        Engine engine = Engine.parse(name);
        return new EngineTerms(engine, PublishedValidation.inferenceTerms(PublishedSet.load()));
    }

    /** The term of that name the set fitted on at least one row, else null. */
    private PublishedValidation.Term find(String name) {
        for (PublishedValidation.Term t : terms) {
            if (t.name().equals(name) && !t.fittedOn().isEmpty()) {
                return t;
            }
        }
        return null;
    }

    /** The term of that name whatever rows gave it (a cost per kernel may be the pooled engines'), else null. */
    private PublishedValidation.Term any(String name) {
        for (PublishedValidation.Term t : terms) {
            if (t.name().equals(name)) {
                return t;
            }
        }
        return null;
    }

    DecodePrediction predict(Transformer tf, DecodeSetup setup, Machine machine) {
        Engine.Gemm g = engine.gemm(tf, setup.weights(), machine.device());
        String decode = "decode." + engine.id();
        PublishedValidation.Term bandwidth = find(decode + ".bandwidth-efficiency");
        PublishedValidation.Term decodeGemm = find(decode + ".gemm-efficiency");
        PublishedValidation.Term perKernel = bandwidth == null ? null : any(decode + ".per-kernel");
        // A prefill's GEMM terms are per precision path: llama.cpp's int8 MMQ kernels and its FP4 ones differ.
        String prefill = "prefill." + engine.id() + "." + PublishedValidation.prefillPath(g);
        PublishedValidation.Term gemm = find(prefill + ".gemm-efficiency");
        PublishedValidation.Term overlap = find("prefill." + engine.id() + ".traffic-overlap");
        PublishedValidation.Term attentionTerm = find("prefill." + engine.id() + ".attention-efficiency");
        DecodeSetup inEngine = new DecodeSetup(setup.contextTokens(), setup.batch(), setup.promptTokens(),
                setup.weights(), setup.kvCache(), g.precision(), setup.tenants());
        double bw = bandwidth == null ? 1 : bandwidth.value();
        double decodeCompute = decodeGemm == null ? 1 : decodeGemm.value();
        double fitted = perKernel == null ? 0 : perKernel.value() * 1e-6;
        // A kernel boundary never costs less than the GPU's published graph-node launch (a catalog machine's; a
        // profile's measured launch interval is the floor DecodeEstimator applies).
        Ceiling published = Machines.publishedGraphLaunch(machine);
        double floor = published == null ? 0 : published.value(Basis.MEASURED);
        double secondsPerKernel = Math.max(fitted, floor);
        EngineKernels.Count stepKernels = EngineKernels.perStep(engine, tf, setup.weights(), setup.batch());
        KernelCost cost = stepKernels == null || perKernel == null ? KernelCost.NONE
                : new KernelCost(stepKernels.kernels(), secondsPerKernel, stepKernels.source() + " x "
                        + (floor > fitted ? String.format(Locale.ROOT, "%.2f us, the published graph-node launch "
                        + "above the engine's fitted %.2f us (%s)", floor * 1e6, fitted * 1e6,
                        published.source(Basis.MEASURED)) : describe(perKernel, "")));
        String why = String.format(Locale.ROOT, "engine %s: bandwidth x%.4f, decode GEMMs x%.4f (validate --published)",
                engine.id(), bw, decodeCompute);
        String detail = String.format(Locale.ROOT, "engine %s: GEMMs in %s (engines.tsv: %s); %s; %s", engine.id(),
                g.precision().label(), g.rule().source(), describe(bandwidth, "bandwidth x"),
                describe(decodeGemm, "decode GEMMs x"));
        Machine scaled = machine.scaled(bw, decodeCompute, why);
        scaled = scaled.withDevice(scaled.device(), g.note() == null ? detail : detail + "; " + g.note());
        DecodePrediction p = DecodeEstimator.predict(tf, inEngine, scaled, cost);
        if (gemm == null) {
            return p;
        }
        // The time to first token as validate --published fits it: on the machine's own ceilings, GEMM time at the
        // fitted efficiency, traffic overlapped or added as the fit chose, the forward's kernels at the decode's cost
        // per kernel, and the first decode step.
        double compute = gemm.value();
        double attention = attentionTerm == null ? compute : attentionTerm.value();
        boolean overlaps = overlap == null || overlap.value() == 1;
        var ops = DecodeEstimator.prefill(tf, inEngine.withWeights(inEngine.weights().resolve(tf)));
        EngineKernels.Count forward = EngineKernels.perStep(engine, tf, setup.weights(),
                setup.batch() * setup.promptTokens());
        double forwardSeconds = forward == null ? 0 : forward.kernels() * secondsPerKernel;
        double measured = EnginePrefill.seconds(EnginePrefill.split(ops, Ceilings.of(machine, Basis.MEASURED, 1, null)),
                compute, attention, overlaps) + forwardSeconds + p.stepSeconds();
        double datasheet = Double.isNaN(p.datasheetPrefillSeconds()) ? Double.NaN : EnginePrefill.seconds(
                EnginePrefill.split(ops, Ceilings.of(machine, Basis.DATASHEET, 1, null)), compute, attention, overlaps)
                + forwardSeconds + p.datasheetStepSeconds();
        List<String> notes = new ArrayList<>(p.notes());
        notes.add(String.format(Locale.ROOT, "engine %s: time to first token with the prefill GEMMs at x%.4f of the "
                + "ceiling (%s), the fused attention at x%.4f (%s), the weight/KV traffic %s (%s, fitted by 'membound "
                + "validate --published'), the forward's kernels at the decode's cost per kernel, and the first decode "
                + "step", engine.id(), compute, gemm.name(), attention, attentionTerm == null
                        ? "the GEMMs' efficiency: the engine's fit rows do not tell its attention apart"
                        : attentionTerm.name() + " on " + String.join(", ", attentionTerm.fittedOn()),
                overlaps ? "overlapping them" : "added to them", overlap == null ? "no overlap term"
                        : overlap.name() + " on " + String.join(", ", overlap.fittedOn())));
        return new DecodePrediction(p.workload(), p.machine(), p.setup(), p.weightsSource(), p.stepSeconds(),
                p.tokensPerSecond(), p.datasheetStepSeconds(), p.datasheetTokensPerSecond(), p.datasheetDifference(),
                p.weightBytesPerStep(), p.kvCacheBytesPerStep(), p.bytesPerToken(), p.memoryBoundShare(),
                p.halfBandwidthTokensPerSecond(), p.doubleBandwidthTokensPerSecond(), measured, datasheet, p.memory(),
                p.operations(), p.measuredCeilings(), notes);
    }

    private static String describe(PublishedValidation.Term t, String what) {
        if (t == null) {
            return what + "1 (the published set has no fit row for this engine and GEMM precision: no fitted term)";
        }
        if (t.fittedOn().isEmpty()) {
            return String.format(Locale.ROOT, "%s%.4f%s (%s: %s)", what, t.value(), t.unit().isEmpty() ? "" : " "
                    + t.unit(), t.name(), t.meaning());
        }
        return String.format(Locale.ROOT, "%s%.4f%s (%s, fitted by 'membound validate --published' on %s)", what,
                t.value(), t.unit().isEmpty() ? "" : " " + t.unit(), t.name(), String.join(", ", t.fittedOn()));
    }
}
