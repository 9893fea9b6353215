package membound.validate.published;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import membound.model.Estimator;
import membound.model.decode.DecodeEstimator;
import membound.model.decode.DecodeSetup;
import membound.model.decode.WeightScheme;
import membound.model.engine.Engine;
import membound.model.engine.EnginePrefill;
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
        Map<String, double[]> values = new LinkedHashMap<>();
        for (Kind kind : Kind.values()) {
            for (String engine : engines(prepared, kind)) {
                fit(terms, values, prepared, kind, engine);
            }
        }
        List<RowResult> results = new ArrayList<>();
        for (Prepared p : prepared) {
            double[] v = values.get(p.group());
            results.add(new RowResult(p.row, p.measured.at(1, 0), p.datasheet.at(1, 0), p.measured.at(v[0], v[1]),
                    p.datasheet.at(v[0], v[1]), describe(p.row.kind(), p.group(), v), p.basisNote));
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

    /** A prediction as a function of its group's two fitted values (the second unused by decode and prefill). */
    @FunctionalInterface
    interface Model {
        double at(double first, double second);
    }

    /** A row ready to predict at any value of its terms. */
    private record Prepared(PublishedRow row, Model measured, Model datasheet, boolean hasMeasured, String basisNote) {

        /** The terms a row shares with the others of its kind and engine. */
        String group() {
            return row.kind().label() + "." + row.engine();
        }

        /** The basis a term is fitted on: measured where the hardware has it. */
        double fitted(double first, double second) {
            return hasMeasured ? measured.at(first, second) : datasheet.at(first, second);
        }
    }

    private static String describe(Kind kind, String group, double[] v) {
        return switch (kind) {
            case DECODE -> String.format(java.util.Locale.ROOT, "%s.bandwidth-efficiency = %.4f", group, v[0]);
            case PREFILL -> String.format(java.util.Locale.ROOT, "%s.gemm-efficiency = %.4f, %s.traffic-overlap = %d",
                    group, v[0], group, v[1] == 0 ? 1 : 0);
            case TRAINING -> String.format(java.util.Locale.ROOT, "%s.compute-efficiency = %.4f, "
                    + "%s.per-operation = %.2f us", group, v[0], group, v[1] * 1e6);
        };
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

    /** Prefill forms searched: 0 = GEMM and traffic overlapped per operation (the roofline's max), 1 = added. */
    private static final double[] PREFILL_FORMS = {0, 1};

    /** Per-operation overheads searched for training: 0 and 0.1 us to 1 ms, log-spaced. */
    private static final double[] PER_OPERATION = perOperationGrid();

    private static double[] perOperationGrid() {
        double[] grid = new double[41];
        for (int i = 1; i < grid.length; i++) {
            grid[i] = 1e-7 * Math.pow(10_000, (i - 1) / 39.0);
        }
        return grid;
    }

    /**
     * Fits one group's terms on its fit rows: the value(s) with the least median |log(predicted/published)|.
     * Efficiencies are searched over 0.01 .. 1 (a kernel does not beat the ceiling it is measured against), the
     * decode bandwidth efficiency over 0.01 .. 1.5 (the measured basis's read kernel is not the fastest possible).
     */
    private static void fit(List<Term> terms, Map<String, double[]> values, List<Prepared> prepared, Kind kind,
                            String engine) {
        List<Prepared> rows = new ArrayList<>();
        String group = kind.label() + "." + engine;
        for (Prepared p : prepared) {
            if (p.group().equals(group) && !p.row.heldOut() && Double.isFinite(p.fitted(1, 0))) {
                rows.add(p);
            }
        }
        List<String> ids = new ArrayList<>();
        rows.forEach(p -> ids.add(p.row.id()));
        double top = kind == Kind.DECODE ? 1.5 : 1.0;
        double[] seconds = switch (kind) {
            case TRAINING -> PER_OPERATION;
            case PREFILL -> PREFILL_FORMS;
            case DECODE -> new double[] {0};
        };
        double best = 1;
        double bestSecond = 0;
        double bestCost = Double.POSITIVE_INFINITY;
        if (!rows.isEmpty()) {
            for (double second : seconds) {
                for (int i = 0; i <= GRID; i++) {
                    double scale = Math.exp(Math.log(0.01) + (Math.log(top) - Math.log(0.01)) * i / GRID);
                    double[] errors = new double[rows.size()];
                    for (int j = 0; j < rows.size(); j++) {
                        errors[j] = Math.abs(Math.log(rows.get(j).fitted(scale, second) / rows.get(j).row.published()));
                    }
                    double cost = median(errors);
                    if (cost < bestCost - 1e-12) {
                        bestCost = cost;
                        best = scale;
                        bestSecond = second;
                    }
                }
            }
        }
        values.put(group, new double[] {best, bestSecond});
        String none = rows.isEmpty() ? " (no fit row: left at 1)" : "";
        switch (kind) {
            case DECODE -> terms.add(new Term(group + ".bandwidth-efficiency", best, "",
                    "fraction of the basis's memory bandwidth " + engine + "'s decode reaches" + none, ids));
            case PREFILL -> {
                terms.add(new Term(group + ".gemm-efficiency", best, "",
                        "fraction of the ceiling at " + engine + "'s GEMM precision (engines.tsv) its prefill GEMMs reach"
                                + none, ids));
                terms.add(new Term(group + ".traffic-overlap", bestSecond == 0 ? 1 : 0, "",
                        "1: weight and KV traffic overlap each operation's GEMM time (the roofline's max); 0: they add "
                                + "to it (the form with the smaller fit-row cost)" + none, ids));
            }
            case TRAINING -> {
                terms.add(new Term(group + ".compute-efficiency", best, "",
                        "fraction of the GEMM ceiling " + engine + "'s compute-bound forward, backward and recompute "
                                + "operations reach (Overheads.computeEfficiency)" + none, ids));
                terms.add(new Term(group + ".per-operation", bestSecond * 1e6, "us",
                        "fixed cost per operation run: launch, dispatch, synchronisation (Overheads.perOperationSeconds)"
                                + none, ids));
            }
        }
    }

    private static Prepared prepare(PublishedRow row) {
        Machine machine = Machines.datasheet(row.hardware());
        boolean hasMeasured = hasMeasuredBasis(machine);
        Transformer tf = PublishedSet.model(row);
        return switch (row.kind()) {
            case DECODE -> decode(row, tf, machine, hasMeasured);
            case PREFILL -> prefill(row, tf, machine, hasMeasured);
            case TRAINING -> training(row, tf, machine, hasMeasured);
        };
    }

    private static DecodeSetup inferenceSetup(PublishedRow row, Engine.Gemm gemm, WeightScheme weights) {
        int prompt = row.kind() == Kind.DECODE ? Math.max(1, row.context()) : row.tokens();
        return new DecodeSetup(Math.max(1, row.context()), row.batch(), prompt, weights, null, gemm.precision(), 1);
    }

    private static String gemmNote(Engine.Gemm gemm) {
        return "GEMM in " + gemm.precision().label() + " (engines.tsv: " + gemm.rule().engine() + " "
                + gemm.rule().backend() + " " + gemm.family() + ")" + (gemm.note() == null ? "" : "; " + gemm.note());
    }

    private static Prepared decode(PublishedRow row, Transformer tf, Machine machine, boolean hasMeasured) {
        WeightScheme weights = WeightScheme.parse(row.weights());
        Engine.Gemm gemm = Engine.parse(row.engine()).gemm(tf, weights, machine.device());
        DecodeSetup setup = inferenceSetup(row, gemm, weights);
        // Decode is memory-bound: the step's time scales as 1 / bandwidth efficiency; evaluate the roofline once.
        var p = DecodeEstimator.predict(tf, setup, machine);
        double measured = hasMeasured ? p.tokensPerSecond() : Double.NaN;
        double datasheet = p.datasheetTokensPerSecond();
        double share = p.memoryBoundShare();
        Model m = (e, unused) -> measured / (share / e + (1 - share));
        Model d = (e, unused) -> datasheet / (share / e + (1 - share));
        return new Prepared(row, m, d, hasMeasured, gemmNote(gemm) + String.format(java.util.Locale.ROOT,
                "; %.1f%% of the step memory-bound", 100 * share));
    }

    private static Prepared prefill(PublishedRow row, Transformer tf, Machine machine, boolean hasMeasured) {
        WeightScheme weights = WeightScheme.parse(row.weights());
        Engine.Gemm gemm = Engine.parse(row.engine()).gemm(tf, weights, machine.device());
        DecodeSetup setup = inferenceSetup(row, gemm, weights).withWeights(weights.resolve(tf));
        List<membound.model.roofline.Operation> ops = DecodeEstimator.prefill(tf, setup);
        double[][] measured = EnginePrefill.split(ops, Ceilings.of(machine, Basis.MEASURED, 1, null));
        double[][] datasheet = EnginePrefill.split(ops, Ceilings.of(machine, Basis.DATASHEET, 1, null));
        double tokens = (double) row.batch() * setup.promptTokens();
        // The second value picks the form: 0 = each operation's GEMM time and traffic overlap (the roofline's max),
        // 1 = they do not (their sum). The fit picks the form with the smaller fit-row cost.
        Model m = (e, form) -> hasMeasured ? tokens / EnginePrefill.seconds(measured, e, form == 0) : Double.NaN;
        Model d = (e, form) -> tokens / EnginePrefill.seconds(datasheet, e, form == 0);
        return new Prepared(row, m, d, hasMeasured, gemmNote(gemm));
    }

    private static Prepared training(PublishedRow row, Transformer tf, Machine machine, boolean hasMeasured) {
        TrainingSetup setup = trainingSetup(row);
        StepPlan plan = Estimator.plan(tf, setup, machine);
        int devices = setup.parallelism().devices();
        double[] raw = new double[2];
        double[] computeBound = new double[2];
        double runs = 0;
        for (Basis basis : new Basis[] {Basis.MEASURED, Basis.DATASHEET}) {
            int b = basis.ordinal();
            raw[b] = Estimator.step(tf, setup, machine, basis).stepSeconds();
            Ceilings ceilings = Ceilings.of(machine, basis, setup.tenants(),
                    Estimator.parallelLink(machine, setup.parallelism()));
            // Overheads(0.5, 0) adds exactly the compute-bound seconds once: what an efficiency e scales by (1/e - 1).
            Roofline.Evaluation eval = Roofline.evaluate(plan.operations(), ceilings);
            computeBound[b] = new Overheads(0.5, 0, "probe").addedSeconds(plan.operations(), eval);
            // Overheads(1, 1 s) adds exactly one second per operation run: the number of runs.
            runs = new Overheads(1, 1, "count").addedSeconds(plan.operations(), eval);
        }
        double tokens = setup.tokensPerStep();
        double operationRuns = runs;
        String note = "trainer " + row.engine() + ": " + devices + " device(s), " + row.parallel() + ", recompute "
                + row.recompute() + ", " + row.finetune() + String.format(java.util.Locale.ROOT,
                ", %.0f operation runs per step", operationRuns);
        int mi = Basis.MEASURED.ordinal();
        int di = Basis.DATASHEET.ordinal();
        Model m = (e, tau) -> !hasMeasured ? Double.NaN
                : tokens / devices / (raw[mi] + computeBound[mi] * (1 / e - 1) + operationRuns * tau);
        Model d = (e, tau) -> tokens / devices / (raw[di] + computeBound[di] * (1 / e - 1) + operationRuns * tau);
        return new Prepared(row, m, d, hasMeasured, note);
    }

    static TrainingSetup trainingSetup(PublishedRow row) {
        Parallelism parallelism = Parallelism.SINGLE;
        if (!row.parallel().equals("-")) {
            int dp = 1;
            int tp = 1;
            int pp = 1;
            int zero = 0;
            for (String part : row.parallel().split(",")) {
                if (part.startsWith("dp")) {
                    dp = Integer.parseInt(part.substring(2));
                } else if (part.startsWith("tp")) {
                    tp = Integer.parseInt(part.substring(2));
                } else if (part.startsWith("pp")) {
                    pp = Integer.parseInt(part.substring(2));
                } else if (part.startsWith("zero")) {
                    zero = Integer.parseInt(part.substring(4));
                } else {
                    throw new BadInputException("published.tsv line " + row.line() + ": parallel must be dpN[,tpN][,ppN][,zeroS]: "
                            + "parallel=" + row.parallel());
                }
            }
            parallelism = new Parallelism(dp, tp, pp, zero, null);
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
