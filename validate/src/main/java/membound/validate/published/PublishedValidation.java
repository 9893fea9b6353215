package membound.validate.published;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleUnaryOperator;

import membound.model.Estimator;
import membound.model.decode.DecodeEstimator;
import membound.model.decode.DecodeSetup;
import membound.model.decode.WeightScheme;
import membound.model.engine.Engine;
import membound.model.machine.Basis;
import membound.model.machine.ComputeCeiling;
import membound.model.machine.Machine;
import membound.model.machine.Machines;
import membound.model.machine.MemoryTier;
import membound.model.roofline.Ceilings;
import membound.model.roofline.Roofline;
import membound.model.training.Checkpointing;
import membound.model.training.FineTuning;
import membound.model.training.LoraTarget;
import membound.model.training.Overheads;
import membound.model.training.Parallelism;
import membound.model.training.StepPlan;
import membound.model.training.TrainingSetup;
import membound.model.workload.Transformer;
import membound.validate.published.PublishedRow.Kind;
import membound.vocabulary.BadInputException;
import membound.vocabulary.Precision;

/**
 * {@code membound validate --published}: every row of the published set predicted on both bases, the
 * terms a roofline misses fitted on the fit rows only, and the errors on the held-out rows. Needs no
 * profile and measures nothing: the "measured" basis is the catalog's published third-party measurements
 * (where the hardware has them), the "datasheet" basis its datasheet figures.
 *
 * <p>Fitted terms, each a one-parameter scale fitted by minimising the median |log(predicted/published)| of
 * its fit rows on the measured basis (the datasheet basis where a row's hardware has no measured one):
 * decode bandwidth efficiency (one for every engine: the fraction of the basis's memory bandwidth decode
 * kernels reach), prefill GEMM efficiency per engine (the fraction of the ceiling at the engine's GEMM
 * precision, {@link Engine}), training compute efficiency and per-operation overhead per trainer
 * ({@link Overheads}).
 */
public final class PublishedValidation {

    /** Medians of |error| the issue asks for on held-out rows. */
    public static final Map<Kind, Double> TARGETS = Map.of(Kind.DECODE, 0.10, Kind.PREFILL, 0.25, Kind.TRAINING, 0.15);

    private static final int GRID = 400;

    /** A fitted term: its name, value, unit, what it means and the ids of the rows it was fitted on. */
    public record Term(String name, double value, String unit, String meaning, List<String> fittedOn) {
    }

    /**
     * One row: the published figure, the roofline alone and with the fitted terms on both bases (NaN where the
     * basis is unavailable), the errors with the terms, and what the prediction rests on.
     */
    public record RowResult(PublishedRow row, double rawMeasured, double rawDatasheet, double measured,
                            double datasheet, String terms, String basis) {

        public double measuredError() {
            return (measured - row.published()) / row.published();
        }

        public double datasheetError() {
            return (datasheet - row.published()) / row.published();
        }

        /** The error on the measured basis where the hardware has one, else on the datasheet basis. */
        public double primaryError() {
            return Double.isFinite(measured) ? measuredError() : datasheetError();
        }
    }

    /** Median |error| of one kind's held-out rows on each basis, and its target. */
    public record KindSummary(Kind kind, int heldOut, int fit, double medianMeasured, double medianDatasheet,
                              double medianPrimary, double target) {
    }

    public record Result(List<RowResult> rows, List<Term> terms, List<KindSummary> summaries) {
    }

    private PublishedValidation() {
    }

    public static Result run(PublishedSet set) {
        List<Prepared> prepared = new ArrayList<>();
        for (PublishedRow row : set.rows()) {
            prepared.add(prepare(row));
        }
        List<Term> terms = new ArrayList<>();
        Map<String, Double> scales = new LinkedHashMap<>();
        // Decode: one bandwidth efficiency for every engine.
        fit(terms, scales, prepared, p -> p.row.kind() == Kind.DECODE, "decode.bandwidth-efficiency", "",
                "fraction of the basis's memory bandwidth that decode kernels reach (every engine)");
        // Prefill: GEMM efficiency per engine, at the engine's GEMM precision.
        for (String engine : engines(prepared, Kind.PREFILL)) {
            fit(terms, scales, prepared, p -> p.row.kind() == Kind.PREFILL && p.row.engine().equals(engine),
                    "prefill.gemm-efficiency." + engine, "",
                    "fraction of the ceiling at " + engine + "'s GEMM precision its prefill reaches");
        }
        // Training: compute efficiency per trainer, then the per-operation overhead of all trainers.
        for (String trainer : engines(prepared, Kind.TRAINING)) {
            fit(terms, scales, prepared, p -> p.row.kind() == Kind.TRAINING && p.row.engine().equals(trainer),
                    "training.compute-efficiency." + trainer, "",
                    "fraction of the GEMM ceiling " + trainer + "'s compute-bound forward/backward/recompute "
                            + "operations reach");
        }
        List<RowResult> results = new ArrayList<>();
        for (Prepared p : prepared) {
            double scale = scales.getOrDefault(p.termName(), 1.0);
            results.add(new RowResult(p.row, p.measured.applyAsDouble(1), p.datasheet.applyAsDouble(1),
                    p.measured.applyAsDouble(scale), p.datasheet.applyAsDouble(scale),
                    String.format(java.util.Locale.ROOT, "%s = %.4f", p.termName(), scale), p.basisNote));
        }
        List<KindSummary> summaries = new ArrayList<>();
        for (Kind kind : Kind.values()) {
            List<Double> m = new ArrayList<>();
            List<Double> d = new ArrayList<>();
            List<Double> primary = new ArrayList<>();
            int fit = 0;
            for (RowResult r : results) {
                if (r.row().kind() != kind) {
                    continue;
                }
                if (!r.row().heldOut()) {
                    fit++;
                    continue;
                }
                if (Double.isFinite(r.measured())) {
                    m.add(Math.abs(r.measuredError()));
                }
                if (Double.isFinite(r.datasheet())) {
                    d.add(Math.abs(r.datasheetError()));
                }
                if (Double.isFinite(r.primaryError())) {
                    primary.add(Math.abs(r.primaryError()));
                }
            }
            summaries.add(new KindSummary(kind, primary.size(), fit, median(m), median(d), median(primary),
                    TARGETS.get(kind)));
        }
        return new Result(results, terms, summaries);
    }

    /** A row ready to predict at any value of its term: the prediction as a function of the term's scale. */
    private record Prepared(PublishedRow row, DoubleUnaryOperator measured, DoubleUnaryOperator datasheet,
                            boolean hasMeasured, String basisNote) {

        String termName() {
            return switch (row.kind()) {
                case DECODE -> "decode.bandwidth-efficiency";
                case PREFILL -> "prefill.gemm-efficiency." + row.engine();
                case TRAINING -> "training.compute-efficiency." + row.engine();
            };
        }

        /** The basis a term is fitted on: measured where the hardware has it. */
        double fitted(double scale) {
            return hasMeasured ? measured.applyAsDouble(scale) : datasheet.applyAsDouble(scale);
        }
    }

    private static List<String> engines(List<Prepared> prepared, Kind kind) {
        List<String> engines = new ArrayList<>();
        for (Prepared p : prepared) {
            if (p.row.kind() == kind && !engines.contains(p.row.engine())) {
                engines.add(p.row.engine());
            }
        }
        return engines;
    }

    private static void fit(List<Term> terms, Map<String, Double> scales, List<Prepared> prepared,
                            java.util.function.Predicate<Prepared> which, String name, String unit, String meaning) {
        List<Prepared> rows = new ArrayList<>();
        for (Prepared p : prepared) {
            if (which.test(p) && !p.row.heldOut() && Double.isFinite(p.fitted(1))) {
                rows.add(p);
            }
        }
        List<String> ids = new ArrayList<>();
        rows.forEach(p -> ids.add(p.row.id()));
        if (rows.isEmpty()) {
            terms.add(new Term(name, 1, unit, meaning + " (no fit row: left at 1)", List.of()));
            scales.put(name, 1.0);
            return;
        }
        // Log-spaced search over 0.01 .. 2: each prediction is monotone in its scale, the objective is not smooth.
        double best = 1;
        double bestCost = Double.POSITIVE_INFINITY;
        for (int i = 0; i <= GRID; i++) {
            double scale = Math.exp(Math.log(0.01) + (Math.log(2) - Math.log(0.01)) * i / GRID);
            double[] errors = new double[rows.size()];
            for (int j = 0; j < rows.size(); j++) {
                errors[j] = Math.abs(Math.log(rows.get(j).fitted(scale) / rows.get(j).row.published()));
            }
            double cost = median(errors);
            if (cost < bestCost - 1e-12) {
                bestCost = cost;
                best = scale;
            }
        }
        terms.add(new Term(name, best, unit, meaning, List.copyOf(ids)));
        scales.put(name, best);
    }

    private static Prepared prepare(PublishedRow row) {
        Machine machine = Machines.datasheet(row.hardware());
        boolean hasMeasured = hasMeasuredBasis(machine);
        Transformer tf = PublishedSet.model(row);
        return switch (row.kind()) {
            case DECODE, PREFILL -> inference(row, tf, machine, hasMeasured);
            case TRAINING -> training(row, tf, machine, hasMeasured);
        };
    }

    private static Prepared inference(PublishedRow row, Transformer tf, Machine machine, boolean hasMeasured) {
        Engine engine = Engine.parse(row.engine());
        WeightScheme weights = WeightScheme.parse(row.weights());
        Engine.Gemm gemm = engine.gemm(tf, weights, machine.device());
        boolean decode = row.kind() == Kind.DECODE;
        int prompt = decode ? Math.max(1, row.context()) : row.tokens();
        DecodeSetup setup = new DecodeSetup(Math.max(1, row.context()), row.batch(), prompt, weights, null,
                gemm.precision(), 1);
        String note = "GEMM in " + gemm.precision().label() + " (engines.tsv: " + gemm.rule().engine() + " "
                + gemm.rule().backend() + " " + gemm.family() + ")" + (gemm.note() == null ? "" : "; " + gemm.note());
        DoubleUnaryOperator measured = scale -> {
            if (!hasMeasured) {
                return Double.NaN;
            }
            Machine m = decode ? machine.scaled(scale, 1, "decode bandwidth efficiency")
                    : machine.scaled(1, scale, "prefill GEMM efficiency");
            var p = DecodeEstimator.predict(tf, setup, m);
            return decode ? p.tokensPerSecond() : row.batch() * prompt / p.prefillSeconds();
        };
        DoubleUnaryOperator datasheet = scale -> {
            Machine m = decode ? machine.scaled(scale, 1, "decode bandwidth efficiency")
                    : machine.scaled(1, scale, "prefill GEMM efficiency");
            var p = DecodeEstimator.predict(tf, setup, m);
            return decode ? p.datasheetTokensPerSecond() : row.batch() * prompt / p.datasheetPrefillSeconds();
        };
        return new Prepared(row, memo(measured), memo(datasheet), hasMeasured, note);
    }

    private static Prepared training(PublishedRow row, Transformer tf, Machine machine, boolean hasMeasured) {
        TrainingSetup setup = trainingSetup(row);
        StepPlan plan = Estimator.plan(tf, setup, machine);
        int devices = setup.parallelism().devices();
        double[] raw = new double[2];
        double[] computeShare = new double[2];
        for (Basis basis : new Basis[] {Basis.MEASURED, Basis.DATASHEET}) {
            int b = basis.ordinal();
            var step = Estimator.step(tf, setup, machine, basis);
            raw[b] = step.stepSeconds();
            Ceilings ceilings = Ceilings.of(machine, basis, setup.tenants(),
                    Estimator.parallelLink(machine, setup.parallelism()));
            Roofline.Evaluation eval = Roofline.evaluate(plan.operations(), ceilings);
            // The compute-bound seconds that a compute efficiency e turns into seconds / e.
            computeShare[b] = new Overheads(0.5, 0, "probe").addedSeconds(plan.operations(), eval);
        }
        double tokens = setup.tokensPerStep();
        String note = "trainer " + row.engine() + ": " + setup.parallelism().devices() + " device(s), "
                + row.parallel() + ", recompute " + row.recompute() + ", " + row.finetune();
        DoubleUnaryOperator measured = scale -> !hasMeasured ? Double.NaN
                : tokens / devices / (raw[Basis.MEASURED.ordinal()] + computeShare[Basis.MEASURED.ordinal()] * (1 / scale - 1));
        DoubleUnaryOperator datasheet = scale ->
                tokens / devices / (raw[Basis.DATASHEET.ordinal()] + computeShare[Basis.DATASHEET.ordinal()] * (1 / scale - 1));
        return new Prepared(row, measured, datasheet, hasMeasured, note);
    }

    static TrainingSetup trainingSetup(PublishedRow row) {
        Parallelism parallelism = Parallelism.SINGLE;
        if (!row.parallel().equals("-")) {
            int dp = 1;
            int zero = 0;
            for (String part : row.parallel().split(",")) {
                if (part.startsWith("dp")) {
                    dp = Integer.parseInt(part.substring(2));
                } else if (part.startsWith("zero")) {
                    zero = Integer.parseInt(part.substring(4));
                } else {
                    throw new BadInputException("published.tsv line " + row.line() + ": parallel must be dpN[,zeroS]: "
                            + "parallel=" + row.parallel());
                }
            }
            parallelism = new Parallelism(dp, 1, 1, zero, null);
        }
        Precision precision = Precision.parse(row.weights());
        FineTuning fineTuning = switch (row.finetune()) {
            case "full" -> FineTuning.full();
            case "lora" -> FineTuning.lora(membound.model.Defaults.LORA_RANK, LoraTarget.allLinear());
            case "qlora" -> FineTuning.qlora(membound.model.Defaults.LORA_RANK, LoraTarget.allLinear());
            default -> throw new BadInputException("published.tsv line " + row.line() + ": finetune must be full, lora "
                    + "or qlora: finetune=" + row.finetune());
        };
        TrainingSetup.Builder b = TrainingSetup.builder().steps(1).sequenceLength(row.tokens())
                .microBatchSize(row.batch()).gradientAccumulation(row.accumulation())
                .checkpointing(row.recompute().equals("full") ? Checkpointing.FULL : Checkpointing.NONE)
                .flashAttention(true).parallelism(parallelism).fineTuning(fineTuning).overlapCommunication(true);
        if (precision == Precision.FP8) {
            // FP8 training (Transformer Engine, as llm-foundry's amp_fp8): FP8 GEMMs, BF16 weights and activations.
            b.precision(Precision.BF16).activationPrecision(Precision.FP8);
        } else {
            b.precision(precision);
        }
        return b.build();
    }

    /** Whether a catalog machine has any published third-party measurement (the measured basis). */
    static boolean hasMeasuredBasis(Machine machine) {
        for (MemoryTier tier : machine.device().tiers()) {
            for (var c : tier.bandwidth().values()) {
                if (c.hasMeasured()) {
                    return true;
                }
            }
        }
        for (ComputeCeiling c : machine.device().compute().values()) {
            if (c.attainableGemm() != null && c.attainableGemm().hasMeasured()) {
                return true;
            }
        }
        return false;
    }

    private static DoubleUnaryOperator memo(DoubleUnaryOperator f) {
        Map<Double, Double> cache = new java.util.HashMap<>();
        return x -> cache.computeIfAbsent(x, f::applyAsDouble);
    }

    static double median(List<Double> values) {
        double[] a = new double[values.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = values.get(i);
        }
        return median(a);
    }

    static double median(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] a = values.clone();
        Arrays.sort(a);
        int n = a.length;
        return n % 2 == 1 ? a[n / 2] : (a[n / 2 - 1] + a[n / 2]) / 2;
    }
}
