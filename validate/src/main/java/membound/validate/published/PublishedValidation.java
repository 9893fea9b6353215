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
import membound.model.engine.EngineKernels;
import membound.model.engine.EnginePrefill;
import membound.model.machine.Basis;
import membound.model.machine.ComputeCeiling;
import membound.model.machine.Ceiling;
import membound.model.machine.Machine;
import membound.model.machine.Machines;
import membound.model.machine.MemoryTier;
import membound.model.roofline.Ceilings;
import membound.model.roofline.Roofline;
import membound.model.training.Overheads;
import membound.model.training.StepPlan;
import membound.model.training.TrainingSetup;
import membound.model.workload.Transformer;
import membound.validate.published.PublishedRow.Kind;

/**
 * {@code membound validate --published}: every row of the published set predicted on both bases, the
 * terms a roofline misses fitted on the fit rows only, and the errors on the held-out rows. Needs no
 * profile and measures nothing: the "measured" basis is the catalog's published third-party measurements
 * (where the hardware has them), the "datasheet" basis its datasheet figures.
 *
 * <p>Fitted terms, each a one-parameter scale fitted by minimising the median |log(predicted/published)| (the training
 * terms: its mean, as a term only a minority of a group's rows tell, an FP8 efficiency say, leaves the median flat) of
 * its fit rows on the measured basis (the datasheet basis where a row's hardware has no measured one):
 * decode bandwidth efficiency (one for every engine: the fraction of the basis's memory bandwidth decode
 * kernels reach), prefill GEMM efficiency per engine (the fraction of the ceiling at the engine's GEMM
 * precision, {@link Engine}), training compute efficiency and per-operation overhead per trainer
 * ({@link Overheads}).
 */
public final class PublishedValidation {

    /** Medians of |error| the issue asks for on held-out rows (issue 32). */
    public static final Map<Kind, Double> TARGETS = Map.of(Kind.DECODE, 0.08, Kind.PREFILL, 0.15, Kind.TRAINING, 0.10);

    /** The largest |error| a held-out row may have for its kind's target to be met (NaN: no such limit). */
    public static final Map<Kind, Double> LIMITS = Map.of(Kind.DECODE, 0.20, Kind.PREFILL, Double.NaN,
            Kind.TRAINING, 0.25);

    /** The group of the typical trainer: every trainer's training fit rows pooled, what predict applies by default. */
    public static final String TYPICAL = "typical";

    private static final int GRID = 400;

    /**
     * A fitted term: its name, value, unit, what it means, the ids of the rows it was fitted on, and the search
     * bound it landed on (null when inside): a term at its bound says the model's structure does not fit those rows.
     */
    public record Term(String name, double value, String unit, String meaning, List<String> fittedOn, String atBound) {

        public Term(String name, double value, String unit, String meaning, List<String> fittedOn) {
            this(name, value, unit, meaning, fittedOn, null);
        }

        public Term {
            fittedOn = List.copyOf(fittedOn);
        }
    }

    /**
     * One row: the published figure, the roofline alone and with the fitted terms on both bases (NaN where the
     * basis is unavailable), the errors with the terms, and what the prediction rests on.
     */
    public record RowResult(PublishedRow row, double rawMeasured, double rawDatasheet, double measured,
                            double datasheet, String terms, String basis) {

        /** The error of the rate predicted on the measured basis: a row published as time per step compares rates. */
        public double measuredError() {
            return error(measured);
        }

        public double datasheetError() {
            return error(datasheet);
        }

        private double error(double predicted) {
            return row.timePerWork() ? row.published() / predicted - 1 : (predicted - row.published()) / row.published();
        }

        /** The error on the measured basis where the hardware has one, else on the datasheet basis. */
        public double primaryError() {
            return Double.isFinite(measured) ? measuredError() : datasheetError();
        }
    }

    /**
     * One kind's held-out rows on each basis: the median |error|, the largest |error| and the row it is on, the
     * target and limit, the rows set aside (neither fitted nor judged, each with its reason in the set).
     */
    public record KindSummary(Kind kind, int heldOut, int fit, double medianMeasured, double medianDatasheet,
                              double medianPrimary, double target, double maxPrimary, String maxRow, double limit,
                              int aside) {

        public KindSummary(Kind kind, int heldOut, int fit, double medianMeasured, double medianDatasheet,
                           double medianPrimary, double target) {
            this(kind, heldOut, fit, medianMeasured, medianDatasheet, medianPrimary, target, Double.NaN, null,
                    Double.NaN, 0);
        }

        /** Met: the median within the target and no held-out row past the limit (where the kind has one). */
        public boolean met() {
            return Double.isFinite(medianPrimary) && medianPrimary <= target
                    && (Double.isNaN(limit) || maxPrimary <= limit);
        }
    }

    public record Result(List<RowResult> rows, List<Term> terms, List<KindSummary> summaries) {
    }

    private PublishedValidation() {
    }

    /** The committed set's validation, computed once per JVM (a few seconds: the training fit searches five terms). */
    public static Result committed() {
        return Committed.RESULT;
    }

    private static final class Committed {
        static final Result RESULT = run(PublishedSet.load());
    }

    /**
     * The decode and prefill terms alone (what {@code predict --engine} needs), without the training fit: the same
     * values {@link #run} fits for them, as each kind's terms are fitted on that kind's rows only.
     */
    public static List<Term> inferenceTerms(PublishedSet set) {
        return run(set, java.util.EnumSet.of(Kind.DECODE, Kind.PREFILL)).terms();
    }

    public static Result run(PublishedSet set) {
        return run(set, java.util.EnumSet.allOf(Kind.class));
    }

    private static Result run(PublishedSet set, java.util.Set<Kind> kinds) {
        List<Prepared> prepared = new ArrayList<>();
        for (PublishedRow row : set.rows()) {
            if (kinds.contains(row.kind())) {
                prepared.add(prepare(row));
            }
        }
        List<Term> terms = new ArrayList<>();
        Map<String, double[]> values = new LinkedHashMap<>();
        // The typical trainer first: a trainer's term its own rows cannot tell (no FP8 row, say) takes the typical value.
        if (kinds.contains(Kind.TRAINING)) {
            fit(terms, values, prepared, Kind.TRAINING, TYPICAL);
        }
        for (Kind kind : kinds) {
            if (kind == Kind.PREFILL) {
                for (String engine : prefillEngines(prepared)) {
                    fitPrefill(terms, values, prepared, engine);
                }
                continue;
            }
            if (kind == Kind.DECODE) {
                // Every engine's decode rows pooled first: a term an engine's own rows cannot tell takes this value.
                fit(terms, values, prepared, kind, TYPICAL);
            }
            for (String engine : engines(prepared, kind)) {
                fit(terms, values, prepared, kind, engine);
            }
        }
        List<RowResult> results = new ArrayList<>();
        for (Prepared p : prepared) {
            double[] raw = noTerms(p.row.kind());
            // A row set aside whose engine has no other row: predicted at the typical trainer's terms (or the roofline).
            double[] v = values.getOrDefault(p.group(), p.row.kind() == Kind.TRAINING
                    ? values.get(Kind.TRAINING.label() + "." + TYPICAL) : raw);
            results.add(new RowResult(p.row, p.measured.at(raw), p.datasheet.at(raw), p.measured.at(v),
                    p.datasheet.at(v), describe(p.row.kind(), values.containsKey(p.group()) ? p.group()
                            : Kind.TRAINING.label() + "." + TYPICAL, v), p.basisNote));
        }
        List<KindSummary> summaries = new ArrayList<>();
        for (Kind kind : kinds) {
            List<Double> m = new ArrayList<>();
            List<Double> d = new ArrayList<>();
            List<Double> primary = new ArrayList<>();
            int fit = 0;
            int aside = 0;
            double max = Double.NaN;
            String maxRow = null;
            for (RowResult r : results) {
                if (r.row().kind() != kind) {
                    continue;
                }
                if (r.row().aside() != null) {
                    aside++;
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
                    double e = Math.abs(r.primaryError());
                    primary.add(e);
                    if (!(e <= max)) {
                        max = e;
                        maxRow = r.row().id();
                    }
                }
            }
            summaries.add(new KindSummary(kind, primary.size(), fit, median(m), median(d), median(primary),
                    TARGETS.get(kind), max, maxRow, LIMITS.get(kind), aside));
        }
        return new Result(results, terms, summaries);
    }

    /**
     * A prediction as a function of its group's fitted values: decode one (bandwidth efficiency), prefill two (GEMM
     * efficiency, overlap form), training three (compute efficiency, memory-bound efficiency, seconds per operation).
     */
    @FunctionalInterface
    interface Model {
        double at(double... values);
    }

    /** A row ready to predict at any value of its terms. */
    private record Prepared(PublishedRow row, Model measured, Model datasheet, boolean hasMeasured, String basisNote,
                            String path, double kernels) {

        /**
         * The terms a row shares with the others of its kind and engine; a prefill's also with the others whose GEMMs
         * ran in the same precision (llama.cpp's int8 MMQ kernels and its FP4 ones reach different fractions of their
         * ceilings).
         */
        String group() {
            return row.kind().label() + "." + engineGroup();
        }

        /** The engine part of the group: the engine, and for a prefill the GEMM precision it ran. */
        String engineGroup() {
            return path == null ? row.engine() : row.engine() + "." + path;
        }

        /** The basis a term is fitted on: measured where the hardware has it. */
        double fitted(double... values) {
            return hasMeasured ? measured.at(values) : datasheet.at(values);
        }
    }

    private static String describe(Kind kind, String group, double[] v) {
        return switch (kind) {
            case DECODE -> String.format(java.util.Locale.ROOT, "%s.bandwidth-efficiency = %.4f, %s.per-kernel = %.2f us, "
                    + "%s.gemm-efficiency = %.4f", group, v[0], group, v[1] * 1e6, group, v[2]);
            case PREFILL -> String.format(java.util.Locale.ROOT, "%s.gemm-efficiency = %.4f, %s.traffic-overlap = %d%s",
                    group, v[0], group, v[1] == 0 ? 1 : 0, v[2] > 0 ? String.format(java.util.Locale.ROOT,
                            ", its kernels at the decode's %.2f us each", v[2] * 1e6) : "");
            case TRAINING -> String.format(java.util.Locale.ROOT, "%s.compute-efficiency = %.4f, "
                    + "%s.fp8-compute-efficiency = %.4f, %s.attention-efficiency = %.4f, %s.memory-efficiency = %.4f, "
                    + "%s.expert-efficiency = %.4f, %s.per-operation = %.2f us", group, v[0], group, v[1], group, v[2],
                    group, v[3], group, v[4], group, v[5] * 1e6);
        };
    }

    private static List<String> engines(List<Prepared> prepared, Kind kind) {
        List<String> engines = new ArrayList<>();
        for (Prepared p : prepared) {
            if (p.row.kind() == kind && p.row.aside() == null && !engines.contains(p.engineGroup())) {
                engines.add(p.engineGroup());
            }
        }
        return engines;
    }

    /** The unit of a prefill published as a time to first token ({@link PublishedRow#TIME_TO_FIRST_TOKEN}). */
    static final String TIME_TO_FIRST_TOKEN = PublishedRow.TIME_TO_FIRST_TOKEN;

    /** Prefill forms searched: 0 = GEMM and traffic overlapped per operation (the roofline's max), 1 = added. */
    private static final double[] PREFILL_FORMS = {0, 1};

    /** Costs per kernel searched for decode: 0 and 0.1 us to 100 us, log-spaced. */
    private static final double[] PER_KERNEL = perKernelGrid();

    private static double[] perKernelGrid() {
        double[] grid = new double[41];
        for (int i = 1; i < grid.length; i++) {
            grid[i] = 1e-7 * Math.pow(1000, (i - 1) / 39.0);
        }
        return grid;
    }

    /** Per-operation overheads searched for training: 0 and 0.1 us to 1 ms, log-spaced. */
    private static final double[] PER_OPERATION = perOperationGrid();

    /** Training compute efficiencies searched: 0.2 .. 1, log-spaced (a kernel does not beat its ceiling). */
    private static final double[] COMPUTE = logGrid(0.2, 1.0, 96);

    /**
     * Training memory-bound efficiencies searched: 0.1 .. 2, log-spaced. Above 1: the trainer moves fewer bytes than
     * the roofline counts (fused kernels), or reaches more than the basis's STREAM-like ceiling.
     */
    private static final double[] MEMORY = logGrid(0.1, 2.0, 40);

    /** Training attention efficiencies searched: 0.1 .. 2 of the fused-attention ceiling, log-spaced. */
    private static final double[] ATTENTION = logGrid(0.1, 2.0, 40);

    private static double[] logGrid(double from, double to, int steps) {
        double[] grid = new double[steps + 1];
        for (int i = 0; i <= steps; i++) {
            grid[i] = Math.exp(Math.log(from) + (Math.log(to) - Math.log(from)) * i / steps);
        }
        return grid;
    }

    private static double[] perOperationGrid() {
        double[] grid = new double[41];
        for (int i = 1; i < grid.length; i++) {
            grid[i] = 1e-7 * Math.pow(10_000, (i - 1) / 39.0);
        }
        return grid;
    }

    /** Whether a fitted row may inform group {@code group}: its own engine's group, or any trainer for typical. */
    private static boolean inGroup(Prepared p, Kind kind, String engine) {
        if (p.row.kind() != kind || p.row.heldOut() || p.row.aside() != null) {
            return false;
        }
        return engine.equals(TYPICAL) || p.engineGroup().equals(engine);
    }

    /**
     * Fits one group's terms on its fit rows: the value(s) with the least median |log(predicted/published)| (training:
     * the least mean, {@link #trainingCost}).
     * Efficiencies are searched over 0.01 .. 1 (a kernel does not beat the ceiling it is measured against), the
     * decode bandwidth efficiency over 0.01 .. 1.5 (the measured basis's read kernel is not the fastest possible);
     * training searches its three terms on their grids ({@link #COMPUTE}, {@link #MEMORY}, {@link #PER_OPERATION}).
     */
    private static void fit(List<Term> terms, Map<String, double[]> values, List<Prepared> prepared, Kind kind,
                            String engine) {
        List<Prepared> rows = new ArrayList<>();
        String group = kind.label() + "." + engine;
        double[] none = noTerms(kind);
        for (Prepared p : prepared) {
            if (inGroup(p, kind, engine) && Double.isFinite(p.fitted(none))) {
                rows.add(p);
            }
        }
        List<String> ids = new ArrayList<>();
        rows.forEach(p -> ids.add(p.row.id()));
        String noRow = rows.isEmpty() ? " (no fit row: left at the roofline)" : "";
        if (kind == Kind.TRAINING) {
            fitTraining(terms, values, rows, group, engine, ids, noRow);
            return;
        }
        if (kind == Kind.DECODE) {
            fitDecode(terms, values, rows, group, engine, ids, noRow);
            return;
        }
        throw new IllegalStateException("prefill groups are fitted per engine: " + group);
    }

    private static List<String> prefillEngines(List<Prepared> prepared) {
        List<String> engines = new ArrayList<>();
        for (Prepared p : prepared) {
            if (p.row.kind() == Kind.PREFILL && p.row.aside() == null && !engines.contains(p.row.engine())) {
                engines.add(p.row.engine());
            }
        }
        return engines;
    }

    /**
     * One engine's prefill terms: a GEMM efficiency per precision path (llama.cpp's int8 and FP4 MMQ kernels reach
     * different fractions of their ceilings), each on its own fit rows, and one form for the engine (whether its weight
     * and KV traffic overlaps the GEMM time, the roofline's max, or adds to it), chosen by the median over all its fit
     * rows: how an engine's kernels move their operands does not change with the precision they multiply in. Each
     * forward's kernels cost what the same engine's decode kernels cost (decode is fitted first).
     */
    private static void fitPrefill(List<Term> terms, Map<String, double[]> values, List<Prepared> prepared,
                                   String engine) {
        List<String> paths = new ArrayList<>();
        for (Prepared p : prepared) {
            if (p.row.kind() == Kind.PREFILL && p.row.aside() == null && p.row.engine().equals(engine)
                    && !paths.contains(p.path)) {
                paths.add(p.path);
            }
        }
        Map<String, List<Prepared>> rowsByPath = new LinkedHashMap<>();
        List<String> allIds = new ArrayList<>();
        for (String path : paths) {
            List<Prepared> rows = new ArrayList<>();
            for (Prepared p : prepared) {
                if (inGroup(p, Kind.PREFILL, engine + "." + path) && Double.isFinite(p.fitted(noTerms(Kind.PREFILL)))) {
                    rows.add(p);
                    allIds.add(p.row.id());
                }
            }
            rowsByPath.put(path, rows);
        }
        double[] decode = values.get(Kind.DECODE.label() + "." + engine);
        double perKernel = decode == null ? 0 : decode[1];
        // A time to first token also takes the first decode step, at the same engine's decode terms.
        double decodeBandwidth = decode == null ? 1 : decode[0];
        double decodeGemm = decode == null ? 1 : decode[2];
        double bestFormCost = Double.POSITIVE_INFINITY;
        double bestForm = 0;
        Map<String, Double> bestEfficiency = new LinkedHashMap<>();
        for (double form : PREFILL_FORMS) {
            Map<String, Double> efficiency = new LinkedHashMap<>();
            List<Double> pooled = new ArrayList<>();
            for (String path : paths) {
                List<Prepared> rows = rowsByPath.get(path);
                double best = 1;
                double bestCost = Double.POSITIVE_INFINITY;
                double[] errors = new double[rows.size()];
                for (int i = GRID; i >= 0 && !rows.isEmpty(); i--) {
                    double scale = Math.exp(Math.log(0.01) + (Math.log(1.0) - Math.log(0.01)) * i / GRID);
                    for (int j = 0; j < rows.size(); j++) {
                        errors[j] = Math.abs(Math.log(rows.get(j).fitted(scale, form, perKernel, decodeBandwidth,
                                decodeGemm) / rows.get(j).row.published()));
                    }
                    double cost = median(errors);
                    if (cost < bestCost - 1e-12) {
                        bestCost = cost;
                        best = scale;
                    }
                }
                efficiency.put(path, best);
                for (Prepared p : rows) {
                    pooled.add(Math.abs(Math.log(p.fitted(best, form, perKernel, decodeBandwidth, decodeGemm)
                            / p.row.published())));
                }
            }
            double cost = pooled.isEmpty() ? 0 : median(pooled);
            if (cost < bestFormCost - 1e-12) {
                bestFormCost = cost;
                bestForm = form;
                bestEfficiency = efficiency;
            }
        }
        String group = Kind.PREFILL.label() + "." + engine;
        for (String path : paths) {
            List<Prepared> rows = rowsByPath.get(path);
            List<String> ids = new ArrayList<>();
            rows.forEach(p -> ids.add(p.row.id()));
            double eff = bestEfficiency.getOrDefault(path, 1.0);
            values.put(group + "." + path, new double[] {eff, bestForm, perKernel, decodeBandwidth, decodeGemm});
            terms.add(new Term(group + "." + path + ".gemm-efficiency", eff, "",
                    "fraction of the ceiling at " + path + " its prefill GEMMs reach (engines.tsv names the precision)"
                            + (rows.isEmpty() ? " (no fit row: left at the roofline)" : ""), ids,
                    rows.isEmpty() ? null : atBound(eff, 0.01, 1.0)));
        }
        terms.add(new Term(group + ".traffic-overlap", bestForm == 0 ? 1 : 0, "",
                "1: weight and KV traffic overlap each operation's GEMM time (the roofline's max); 0: they add to it "
                        + "(the form with the smaller median over all the engine's fit rows)", allIds));
    }

    /** The values of a kind's terms that leave the roofline as it is. */
    private static double[] noTerms(Kind kind) {
        return switch (kind) {
            case TRAINING -> NO_TERMS.clone();
            case DECODE -> new double[] {1, 0, 1};
            case PREFILL -> new double[] {1, 0, 0, 1, 1};
        };
    }

    /** Decode bandwidth efficiencies searched: 0.05 .. 1 of the basis's read bandwidth, log-spaced. */
    private static final double[] DECODE_BANDWIDTH = logGrid(0.05, 1.0, 120);

    /** Decode GEMM efficiencies searched: 0.05 .. 1 of the ceiling at the engine's GEMM precision, log-spaced. */
    private static final double[] DECODE_GEMM = logGrid(0.05, 1.0, 40);

    /**
     * A decode group's three terms: the bandwidth efficiency of its memory-bound time, the cost per kernel (told only
     * by rows whose engine has a kernel count) and the GEMM efficiency of its compute-bound time (told only by rows whose
     * batch puts GEMMs on the compute side of the roofline: changing it over its range moves them). A term no row tells
     * is left at the roofline's value and says so. The least median |log(predicted/published)| over the full grid.
     */
    private static void fitDecode(List<Term> terms, Map<String, double[]> values, List<Prepared> rows, String group,
                                  String engine, List<String> ids, String noRow) {
        // The cost per kernel is told apart from the bandwidth efficiency only by rows of different kernel counts;
        // else it is the pooled engines' (the typical group's) value.
        double[] typical = values.get(Kind.DECODE.label() + "." + TYPICAL);
        boolean counted = rows.stream().filter(p -> p.kernels > 0).mapToDouble(p -> p.kernels).distinct().count() >= 2;
        boolean borrowed = !counted && typical != null && rows.stream().anyMatch(p -> p.kernels > 0);
        boolean computeTold = false;
        for (Prepared p : rows) {
            // Told: the GEMM efficiency's whole range moves the row by more than a rounding of its published digits.
            computeTold |= Math.abs(Math.log(p.fitted(1, 0, DECODE_GEMM[0]) / p.fitted(1, 0, 1))) > 1e-3;
        }
        double[] perKernel = counted ? PER_KERNEL : new double[] {borrowed ? typical[1] : 0};
        double[] gemm = computeTold ? DECODE_GEMM : new double[] {1};
        double[] best = noTerms(Kind.DECODE);
        double bestCost = Double.POSITIVE_INFINITY;
        double[] errors = new double[rows.size()];
        // From the roofline's values outward (efficiencies from 1 down, the cost per kernel from 0 up): a tie keeps the
        // value nearer the roofline, so a term the rows barely tell does not drift to the end of its range.
        for (int gi = gemm.length - 1; gi >= 0; gi--) {
            double g = gemm[gi];
            for (double k : perKernel) {
                for (int bi = DECODE_BANDWIDTH.length - 1; bi >= 0; bi--) {
                    double b = DECODE_BANDWIDTH[bi];
                    for (int j = 0; j < rows.size(); j++) {
                        errors[j] = Math.abs(Math.log(rows.get(j).fitted(b, k, g) / rows.get(j).row.published()));
                    }
                    double cost = rows.isEmpty() ? 0 : median(errors);
                    if (cost < bestCost - 1e-12) {
                        bestCost = cost;
                        best = new double[] {b, k, g};
                    }
                }
            }
        }
        if (rows.isEmpty()) {
            best = noTerms(Kind.DECODE);
        }
        values.put(group, best);
        boolean fitted = !rows.isEmpty();
        terms.add(new Term(group + ".bandwidth-efficiency", best[0], "",
                "fraction of the basis's memory bandwidth " + engine + "'s decode reaches" + noRow, ids,
                fitted ? atBound(best[0], DECODE_BANDWIDTH[0], 1.0) : null));
        if (counted || borrowed) {
            List<String> typicalIds = new ArrayList<>();
            for (Term t : terms) {
                if (t.name().equals(Kind.DECODE.label() + "." + TYPICAL + ".per-kernel")) {
                    typicalIds.addAll(t.fittedOn());
                }
            }
            terms.add(new Term(group + ".per-kernel", best[1] * 1e6, "us",
                    "what each kernel boundary of " + engine + "'s decode costs (launch or graph-node dispatch, a short "
                            + "kernel's ramp and tail), times the kernels of a step (engines/kernels.tsv)" + (borrowed
                            ? "; its own rows do not tell it apart from the bandwidth efficiency: the typical value, "
                            + "every engine's fit rows pooled" : noRow), borrowed ? typicalIds : ids,
                    counted && fitted ? atBound(best[1], Double.NaN, PER_KERNEL[PER_KERNEL.length - 1]) : null));
        }
        if (computeTold) {
            terms.add(new Term(group + ".gemm-efficiency", best[2], "",
                    "fraction of the ceiling at " + engine + "'s GEMM precision its decode GEMMs reach where the batch "
                            + "makes them compute-bound" + noRow, ids, fitted ? atBound(best[2], DECODE_GEMM[0], 1.0)
                            : null));
        }
    }

    /** The training terms, in {@link Overheads}' order, and the value of each that leaves the roofline as it is. */
    private static final int TRAINING_TERMS = 6;

    /**
     * The fit rows a trainer's term must move for the trainer to get a value of its own: fewer leave it at the typical
     * trainer's, as a handful of rows of another kind (Megatron-Bridge's three BF16 rows, all mixtures of experts) would
     * otherwise set what every prediction of that kind takes.
     */
    static final int MIN_TELLING_ROWS = 5;
    private static final double[] NO_TERMS = {1, 1, 1, 1, 1, 0};
    private static final String[] TRAINING_NAMES = {"compute-efficiency", "fp8-compute-efficiency",
        "attention-efficiency", "memory-efficiency", "expert-efficiency", "per-operation"};

    /**
     * The five training terms: a full search on every fifth point of each grid, then coordinate descent over the
     * full grids from the best point (each term in turn, until no term moves), as the median cost is flat in places.
     * A term the group's rows cannot tell (changing it over its whole range moves no row: no FP8 GEMM in any row, say)
     * is not fitted: it takes the typical trainer's value, and says so.
     */
    private static void fitTraining(List<Term> terms, Map<String, double[]> values, List<Prepared> rows, String group,
                                    String engine, List<String> ids, String noRow) {
        double[][] grids = {COMPUTE, COMPUTE, ATTENTION, MEMORY, COMPUTE, PER_OPERATION};
        double[] typical = values.get(Kind.TRAINING.label() + "." + TYPICAL);
        boolean[] identified = new boolean[TRAINING_TERMS];
        int[] telling = new int[TRAINING_TERMS];
        for (int term = 0; term < TRAINING_TERMS; term++) {
            double[] low = NO_TERMS.clone();
            double[] high = NO_TERMS.clone();
            low[term] = grids[term][0];
            high[term] = grids[term][grids[term].length - 1];
            for (Prepared p : rows) {
                if (p.fitted(low) != p.fitted(high)) {
                    telling[term]++;
                }
            }
            // A trainer's own value needs MIN_TELLING_ROWS rows that move with it; the typical trainer's any row.
            identified[term] = telling[term] >= (typical == null ? 1 : MIN_TELLING_ROWS);
        }
        int[] best = new int[TRAINING_TERMS];
        for (int term = 0; term < TRAINING_TERMS; term++) {
            best[term] = term == TRAINING_TERMS - 1 ? 0 : grids[term].length - 1;
        }
        double bestCost = Double.POSITIVE_INFINITY;
        if (!rows.isEmpty()) {
            int[] steps = new int[TRAINING_TERMS];
            for (int term = 0; term < TRAINING_TERMS; term++) {
                steps[term] = identified[term] ? 5 : grids[term].length;
            }
            int[] at = best.clone();
            for (int term = 0; term < TRAINING_TERMS; term++) {
                at[term] = identified[term] ? 0 : best[term];
            }
            bestCost = trainingCost(rows, grids, best, typical, identified);
            // Odometer over the coarse grid of the identified terms.
            while (true) {
                double cost = trainingCost(rows, grids, at, typical, identified);
                if (cost < bestCost - 1e-12) {
                    bestCost = cost;
                    best = at.clone();
                }
                int term = 0;
                while (term < TRAINING_TERMS) {
                    if (!identified[term]) {
                        term++;
                        continue;
                    }
                    at[term] += steps[term];
                    if (at[term] < grids[term].length) {
                        break;
                    }
                    at[term] = 0;
                    term++;
                }
                if (term == TRAINING_TERMS) {
                    break;
                }
            }
            boolean moved = true;
            while (moved) {
                moved = false;
                for (int term = 0; term < TRAINING_TERMS; term++) {
                    if (!identified[term]) {
                        continue;
                    }
                    int[] trial = best.clone();
                    for (int i = 0; i < grids[term].length; i++) {
                        trial[term] = i;
                        double cost = trainingCost(rows, grids, trial, typical, identified);
                        if (cost < bestCost - 1e-12) {
                            bestCost = cost;
                            best = trial.clone();
                            moved = true;
                        }
                    }
                }
            }
        }
        double[] v = point(grids, best, typical, identified);
        if (rows.isEmpty()) {
            v = NO_TERMS.clone();
        }
        values.put(group, v);
        boolean fitted = !rows.isEmpty();
        String who = engine.equals(TYPICAL) ? "the typical PyTorch trainer's (every trainer's fit rows pooled)"
                : engine + "'s";
        String[] meanings = {
            "fraction of the GEMM ceiling " + who + " compute-bound forward, backward and recompute GEMMs in 16 bits "
                    + "or more reach (Overheads.computeEfficiency)",
            "the same for its GEMMs in 8 bits or fewer: FP8 with its casts and scaling (Overheads."
                    + "lowPrecisionComputeEfficiency)",
            "fraction of the fused-attention ceiling (Defaults.fusedAttentionFractionOfGemm of the GEMM rate: "
                    + "FlashAttention-2 on the device) " + who + " compute-bound attention kernels reach "
                    + "(Overheads.attentionEfficiency)",
            "fraction of the basis's memory bandwidth " + who + " memory-bound device kernels (norms, activations, "
                    + "optimizer) reach (Overheads.memoryEfficiency)",
            "fraction of the GEMM ceiling " + who + " routed experts' GEMMs of a mixture of experts reach, in any "
                    + "precision (Overheads.expertEfficiency)",
            "fixed cost per operation run: launch, dispatch, synchronisation (Overheads.perOperationSeconds)"};
        for (int term = 0; term < TRAINING_TERMS; term++) {
            boolean own = fitted && (identified[term] || typical == null);
            String why = !fitted ? noRow : own ? ""
                    : telling[term] == 0 ? " (not told by these rows: changing it moves none of them; the typical "
                    + "trainer's value)" : " (told by " + telling[term] + " of these rows, fewer than "
                    + MIN_TELLING_ROWS + ": the typical trainer's value)";
            double value = term == TRAINING_TERMS - 1 ? v[term] * 1e6 : v[term];
            double[] grid = grids[term];
            String bound = !own ? null : atBound(v[term], term == TRAINING_TERMS - 1 ? Double.NaN : grid[0],
                    grid[grid.length - 1]);
            terms.add(new Term(group + "." + TRAINING_NAMES[term], value, term == TRAINING_TERMS - 1 ? "us" : "",
                    meanings[term] + why, ids, bound));
        }
    }

    private static double[] point(double[][] grids, int[] at, double[] typical, boolean[] identified) {
        double[] v = new double[TRAINING_TERMS];
        for (int term = 0; term < TRAINING_TERMS; term++) {
            v[term] = identified[term] || typical == null ? grids[term][at[term]] : typical[term];
        }
        return v;
    }

    /**
     * The training fit's cost: the mean |log(predicted/published)| of the group's fit rows. The median left terms that
     * only a minority of the rows tell (FP8, 16-bit or attention efficiency in a group of mostly other rows) free to go
     * anywhere so long as those rows stayed above the median; the mean gives every row a say and stays robust, a row's
     * pull growing only linearly with its error.
     */
    private static double trainingCost(List<Prepared> rows, double[][] grids, int[] at, double[] typical,
                                       boolean[] identified) {
        double[] v = point(grids, at, typical, identified);
        double sum = 0;
        for (Prepared row : rows) {
            sum += Math.abs(Math.log(row.fitted(v) / row.row.published()));
        }
        return sum / rows.size();
    }

    /** Which end of its search range a fitted value sits on, or null inside it. */
    private static String atBound(double value, double low, double high) {
        if (Math.abs(value - high) <= 1e-9 * Math.abs(high)) {
            return "upper search bound " + high;
        }
        if (Double.isFinite(low) && Math.abs(value - low) <= 1e-9 * Math.abs(low)) {
            return "lower search bound " + low;
        }
        return null;
    }

    private static Prepared prepare(PublishedRow row) {
        Machine machine = Machines.datasheet(row.hardware());
        boolean hasMeasured = hasMeasuredBasis(machine);
        Transformer tf = PublishedSet.model(row);
        Prepared p = switch (row.kind()) {
            case DECODE -> decode(row, tf, machine, hasMeasured);
            case PREFILL -> prefill(row, tf, machine, hasMeasured);
            case TRAINING -> training(row, tf, machine, hasMeasured);
        };
        return row.aside() == null ? p
                : new Prepared(row, p.measured, p.datasheet, p.hasMeasured, "SET ASIDE (" + row.aside() + "); " + p.basisNote,
                        p.path, p.kernels);
    }

    private static DecodeSetup inferenceSetup(PublishedRow row, Engine.Gemm gemm, WeightScheme weights) {
        int prompt = row.kind() == Kind.DECODE ? Math.max(1, row.context()) : row.tokens();
        return new DecodeSetup(Math.max(1, row.context()), row.batch(), prompt, weights, row.kvCache(), gemm.precision(), 1);
    }

    private static String gemmNote(Engine.Gemm gemm) {
        return "GEMM in " + gemm.precision().label() + " (engines.tsv: " + gemm.rule().engine() + " "
                + gemm.rule().backend() + " " + gemm.family() + ")" + (gemm.note() == null ? "" : "; " + gemm.note());
    }

    /** The machine's published graph-node launch cost, the least a kernel boundary costs (0 where none is published). */
    private static double graphLaunch(Machine machine) {
        Ceiling launch = Machines.publishedGraphLaunch(machine);
        return launch == null ? 0 : launch.value(Basis.MEASURED);
    }

    /** The precision a prefill's GEMMs ran in, as its group names it ({@code fp4}, {@code fp8}, {@code bf16}). */
    public static String prefillPath(Engine.Gemm gemm) {
        return gemm.precision().label();
    }

    private static Prepared decode(PublishedRow row, Transformer tf, Machine machine, boolean hasMeasured) {
        WeightScheme weights = WeightScheme.parse(row.weightScheme());
        Engine engine = Engine.parse(row.engine());
        Engine.Gemm gemm = engine.gemm(tf, weights, machine.device(), row.date());
        DecodeSetup setup = inferenceSetup(row, gemm, weights).withWeights(weights.resolve(tf));
        // Each operation's compute and memory seconds once; the terms scale them (memory by the bandwidth efficiency,
        // compute by the GEMM efficiency, the roofline's max per operation), and the engine's kernels add their count
        // times the cost per kernel (catalog machines carry no launch interval).
        List<membound.model.roofline.Operation> ops = DecodeEstimator.decodeStep(tf, setup);
        double[][] measured = EnginePrefill.split(ops, Ceilings.of(machine, Basis.MEASURED, 1, null));
        double[][] datasheet = EnginePrefill.split(ops, Ceilings.of(machine, Basis.DATASHEET, 1, null));
        EngineKernels.Count count = EngineKernels.perStep(engine, tf, weights, row.batch());
        double kernels = count == null ? 0 : count.kernels();
        double batch = row.batch();
        double floor = graphLaunch(machine);
        Model m = v -> hasMeasured ? batch / (EnginePrefill.decodeSeconds(measured, v[0], v[2])
                + kernels * Math.max(v[1], floor)) : Double.NaN;
        Model d = v -> batch / (EnginePrefill.decodeSeconds(datasheet, v[0], v[2]) + kernels * Math.max(v[1], floor));
        return new Prepared(row, m, d, hasMeasured, gemmNote(gemm) + "; " + (count == null
                ? "no kernel count for " + engine.id() + " (engines/kernels.tsv)" : count.source()), null, kernels);
    }

    private static Prepared prefill(PublishedRow row, Transformer tf, Machine machine, boolean hasMeasured) {
        WeightScheme weights = WeightScheme.parse(row.weightScheme());
        Engine engine = Engine.parse(row.engine());
        Engine.Gemm gemm = engine.gemm(tf, weights, machine.device(), row.date());
        DecodeSetup setup = inferenceSetup(row, gemm, weights).withWeights(weights.resolve(tf));
        List<membound.model.roofline.Operation> ops = DecodeEstimator.prefill(tf, setup);
        double[][] measured = EnginePrefill.split(ops, Ceilings.of(machine, Basis.MEASURED, 1, null));
        double[][] datasheet = EnginePrefill.split(ops, Ceilings.of(machine, Basis.DATASHEET, 1, null));
        double tokens = (double) row.batch() * setup.promptTokens();
        // One forward over the prompt launches the engine's kernels once, at the band of the tokens it carries.
        EngineKernels.Count count = EngineKernels.perStep(engine, tf, weights, (int) Math.min(tokens, 1_000_000));
        double kernels = count == null ? 0 : count.kernels();
        // A figure published as a time to first token also took the first decode step (at the prompt's depth).
        boolean firstToken = row.unit().equals(TIME_TO_FIRST_TOKEN);
        List<membound.model.roofline.Operation> step = DecodeEstimator.decodeStep(tf, setup);
        double[][] stepMeasured = EnginePrefill.split(step, Ceilings.of(machine, Basis.MEASURED, 1, null));
        double[][] stepDatasheet = EnginePrefill.split(step, Ceilings.of(machine, Basis.DATASHEET, 1, null));
        EngineKernels.Count stepCount = EngineKernels.perStep(engine, tf, weights, row.batch());
        double stepKernels = stepCount == null ? 0 : stepCount.kernels();
        // The second value picks the form: 0 = each operation's GEMM time and traffic overlap (the roofline's max),
        // 1 = they do not (their sum); the third is the cost per kernel, the fourth and fifth the decode's bandwidth
        // and GEMM efficiencies (all three the same engine's decode terms).
        double floor = graphLaunch(machine);
        Model m = v -> hasMeasured ? tokens / (EnginePrefill.seconds(measured, v[0], v[1] == 0)
                + kernels * Math.max(v[2], floor) + (firstToken ? EnginePrefill.decodeSeconds(stepMeasured, v[3], v[4])
                + stepKernels * Math.max(v[2], floor) : 0)) : Double.NaN;
        Model d = v -> tokens / (EnginePrefill.seconds(datasheet, v[0], v[1] == 0) + kernels * Math.max(v[2], floor)
                + (firstToken ? EnginePrefill.decodeSeconds(stepDatasheet, v[3], v[4])
                + stepKernels * Math.max(v[2], floor) : 0));
        return new Prepared(row, m, d, hasMeasured, gemmNote(gemm) + (count == null ? "" : "; " + count.source())
                + (firstToken ? "; a time to first token: the prefill and the first decode step" : ""),
                prefillPath(gemm), kernels);
    }

    private static Prepared training(PublishedRow row, Transformer tf, Machine machine, boolean hasMeasured) {
        TrainingSetup setup = TrainingRows.trainingSetup(row);
        StepPlan plan = Estimator.plan(tf, setup, machine);
        int devices = setup.parallelism().devices();
        double[] raw = new double[2];
        double[][] parts = new double[2][];
        for (Basis basis : new Basis[] {Basis.MEASURED, Basis.DATASHEET}) {
            int b = basis.ordinal();
            raw[b] = Estimator.step(tf, setup, machine, basis).stepSeconds();
            Ceilings ceilings = Ceilings.withLinks(machine, basis, setup.tenants(),
                    Estimator.links(machine, setup.parallelism()), setup.attentionKernel());
            // The sums the terms scale: compute-bound seconds by kind, memory-bound seconds, operation runs (the
            // pipeline's passes counted with their bubble).
            parts[b] = Overheads.parts(plan.operations(), Roofline.evaluate(plan.operations(), ceilings),
                    Estimator.passScale(setup));
        }
        double runs = parts[Basis.MEASURED.ordinal()][TRAINING_TERMS - 1];
        double tokens = setup.tokensPerStep();
        double operationRuns = runs;
        String note = "trainer " + row.engine() + ": " + devices + " device(s), " + row.parallel() + ", recompute "
                + row.recompute() + ", " + row.finetune() + String.format(java.util.Locale.ROOT,
                ", %.0f operation runs per step", operationRuns) + unitNote(row, setup, devices);
        int mi = Basis.MEASURED.ordinal();
        int di = Basis.DATASHEET.ordinal();
        Model m = v -> !hasMeasured ? Double.NaN : inUnit(row, tokens, devices, raw[mi] + added(parts[mi], v));
        Model d = v -> inUnit(row, tokens, devices, raw[di] + added(parts[di], v));
        return new Prepared(row, m, d, hasMeasured, note, null, 0);
    }

    /**
     * A predicted step in the row's unit: tokens per second per device, samples (sequences of the row's length) per
     * second of the whole job, or seconds per optimizer step.
     */
    static double inUnit(PublishedRow row, double tokensPerStep, int devices, double stepSeconds) {
        return switch (row.unit()) {
            case PublishedRow.TOKENS_PER_DEVICE -> tokensPerStep / devices / stepSeconds;
            case PublishedRow.SAMPLES -> tokensPerStep / row.tokens() / stepSeconds;
            case PublishedRow.SECONDS_PER_STEP -> stepSeconds;
            default -> throw new IllegalStateException(row.unit());
        };
    }

    private static String unitNote(PublishedRow row, TrainingSetup setup, int devices) {
        return switch (row.unit()) {
            case PublishedRow.SAMPLES -> String.format(java.util.Locale.ROOT, "; samples/s of the whole job, a sample "
                    + "%d tokens: %,.0f tokens/s/device published", row.tokens(),
                    row.published() * row.tokens() / devices);
            case PublishedRow.SECONDS_PER_STEP -> String.format(java.util.Locale.ROOT, "; seconds per step of %,d "
                    + "tokens: %,.0f tokens/s/device published", setup.tokensPerStep(),
                    setup.tokensPerStep() / row.published() / devices);
            default -> "";
        };
    }

    /** What the terms add to a step: the efficiencies scale their parts by (1/e - 1), the last is seconds per run. */
    private static double added(double[] parts, double[] v) {
        double s = 0;
        for (int i = 0; i < TRAINING_TERMS - 1; i++) {
            s += parts[i] * (1 / v[i] - 1);
        }
        return s + parts[TRAINING_TERMS - 1] * v[TRAINING_TERMS - 1];
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
