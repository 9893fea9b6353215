package membound.validate.published;

import static membound.validate.published.PublishedValidation.GRID;
import static membound.validate.published.PublishedValidation.TYPICAL;
import static membound.validate.published.PublishedValidation.atBound;
import static membound.validate.published.PublishedValidation.inGroup;
import static membound.validate.published.PublishedValidation.logGrid;
import static membound.validate.published.PublishedValidation.median;
import static membound.validate.published.PublishedValidation.noTerms;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import membound.model.decode.DecodeEstimator;
import membound.model.decode.DecodeSetup;
import membound.model.decode.WeightScheme;
import membound.model.engine.Engine;
import membound.model.engine.EngineKernels;
import membound.model.engine.EnginePrefill;
import membound.model.machine.Basis;
import membound.model.machine.Ceiling;
import membound.model.machine.Machine;
import membound.model.machine.Machines;
import membound.model.roofline.Ceilings;
import membound.model.workload.Transformer;
import membound.validate.published.PublishedRow.Kind;
import membound.validate.published.PublishedValidation.Model;
import membound.validate.published.PublishedValidation.Prepared;
import membound.validate.published.PublishedValidation.Term;

/**
 * The decode and prefill side of the published validation: each inference row as a function of its engine's terms
 * (decode: bandwidth efficiency, cost per kernel, GEMM efficiency; prefill: a GEMM efficiency per GEMM path and the
 * engine's traffic form, its kernels at the decode's cost), and the fits of those terms on the fit rows.
 * {@link PublishedValidation} runs them and reports.
 */
final class InferenceFits {

    private InferenceFits() {
    }

    /** Prefill forms searched: 0 = GEMM and traffic overlapped per operation (the roofline's max), 1 = added. */
    static final double[] PREFILL_FORMS = {0, 1};

    /** Costs per kernel searched for decode: 0 and 0.1 us to 100 us, log-spaced. */
    static final double[] PER_KERNEL = perKernelGrid();

    static double[] perKernelGrid() {
        double[] grid = new double[41];
        for (int i = 1; i < grid.length; i++) {
            grid[i] = 1e-7 * Math.pow(1000, (i - 1) / 39.0);
        }
        return grid;
    }

    static List<String> prefillEngines(List<Prepared> prepared) {
        List<String> engines = new ArrayList<>();
        for (Prepared p : prepared) {
            if (p.row().kind() == Kind.PREFILL && p.row().aside() == null && !engines.contains(p.row().engine())) {
                engines.add(p.row().engine());
            }
        }
        return engines;
    }

    /** Prefill attention efficiencies searched: 0.05 .. 1 of the ceiling at the attention's precision, log-spaced. */
    static final double[] PREFILL_ATTENTION = logGrid(0.05, 1.0, 40);

    /**
     * How far (in |log|) a row moves when its fused attention's efficiency goes from 1 to the bottom of its range: rows
     * whose moves differ tell the attention's efficiency apart from the GEMMs'.
     */
    private static double attentionMove(Prepared p) {
        double[] low = noTerms(Kind.PREFILL);
        double[] high = noTerms(Kind.PREFILL);
        low[5] = PREFILL_ATTENTION[0];
        high[5] = 1;
        return Math.abs(Math.log(p.fitted(low) / p.fitted(high)));
    }

    /**
     * Whether an engine's fit rows tell its fused attention's efficiency apart from its GEMM efficiencies: at least
     * three fit rows of one precision path whose attention moves them by amounts at least 0.1 (in |log|) apart, as
     * prompts of different lengths do (attention grows with the prompt, the GEMMs do not).
     */
    static boolean attentionTold(Map<String, List<Prepared>> rowsByPath) {
        for (List<Prepared> rows : rowsByPath.values()) {
            if (rows.size() < 3) {
                continue;
            }
            double low = Double.POSITIVE_INFINITY;
            double high = 0;
            for (Prepared p : rows) {
                double move = attentionMove(p);
                low = Math.min(low, move);
                high = Math.max(high, move);
            }
            if (high - low >= 0.1) {
                return true;
            }
        }
        return false;
    }

    /**
     * One engine's prefill terms: a GEMM efficiency per precision path (llama.cpp's int8 and FP4 MMQ kernels reach
     * different fractions of their ceilings), each on its own fit rows; one fused-attention efficiency for the engine
     * where its rows tell it apart ({@link #attentionTold}: FlashAttention multiplies 16-bit queries and keys whatever
     * the weights are stored in; else attention runs at each path's GEMM efficiency, as before); and one form for the
     * engine (whether its weight and KV traffic overlaps the GEMM time, the roofline's max, or adds to it). The form and
     * the attention efficiency are chosen by the median over all the engine's fit rows: how an engine's kernels move
     * their operands, or how its attention kernel runs, does not change with the precision its GEMMs multiply in. Each
     * forward's kernels cost what the same engine's decode kernels cost (decode is fitted first).
     */
    static void fitPrefill(List<Term> terms, Map<String, double[]> values, List<Prepared> prepared,
                                   String engine) {
        List<String> paths = new ArrayList<>();
        for (Prepared p : prepared) {
            if (p.row().kind() == Kind.PREFILL && p.row().aside() == null && p.row().engine().equals(engine)
                    && !paths.contains(p.path())) {
                paths.add(p.path());
            }
        }
        Map<String, List<Prepared>> rowsByPath = new LinkedHashMap<>();
        List<String> allIds = new ArrayList<>();
        for (String path : paths) {
            List<Prepared> rows = new ArrayList<>();
            for (Prepared p : prepared) {
                if (inGroup(p, Kind.PREFILL, engine + "." + path) && Double.isFinite(p.fitted(noTerms(Kind.PREFILL)))) {
                    rows.add(p);
                    allIds.add(p.row().id());
                }
            }
            rowsByPath.put(path, rows);
        }
        double[] decode = values.get(Kind.DECODE.label() + "." + engine);
        double perKernel = decode == null ? 0 : decode[1];
        // A time to first token also takes the first decode step, at the same engine's decode terms.
        double decodeBandwidth = decode == null ? 1 : decode[0];
        double decodeGemm = decode == null ? 1 : decode[2];
        boolean told = attentionTold(rowsByPath);
        // NaN: attention at each path's GEMM efficiency.
        double[] attentionGrid = told ? PREFILL_ATTENTION : new double[] {Double.NaN};
        double bestFormCost = Double.POSITIVE_INFINITY;
        double bestForm = 0;
        double bestAttention = Double.NaN;
        Map<String, Double> bestEfficiency = new LinkedHashMap<>();
        for (double form : PREFILL_FORMS) {
            // From the roofline's value down: a tie keeps the attention efficiency nearer 1.
            for (int ai = attentionGrid.length - 1; ai >= 0; ai--) {
                double attention = attentionGrid[ai];
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
                                    decodeGemm, attention) / rows.get(j).row().published()));
                        }
                        double cost = median(errors);
                        if (cost < bestCost - 1e-12) {
                            bestCost = cost;
                            best = scale;
                        }
                    }
                    efficiency.put(path, best);
                    for (Prepared p : rows) {
                        pooled.add(Math.abs(Math.log(p.fitted(best, form, perKernel, decodeBandwidth, decodeGemm,
                                attention) / p.row().published())));
                    }
                }
                double cost = pooled.isEmpty() ? 0 : median(pooled);
                if (cost < bestFormCost - 1e-12) {
                    bestFormCost = cost;
                    bestForm = form;
                    bestAttention = attention;
                    bestEfficiency = efficiency;
                }
            }
        }
        String group = Kind.PREFILL.label() + "." + engine;
        for (String path : paths) {
            List<Prepared> rows = rowsByPath.get(path);
            List<String> ids = new ArrayList<>();
            rows.forEach(p -> ids.add(p.row().id()));
            double eff = bestEfficiency.getOrDefault(path, 1.0);
            values.put(group + "." + path, new double[] {eff, bestForm, perKernel, decodeBandwidth, decodeGemm,
                    bestAttention});
            terms.add(new Term(group + "." + path + ".gemm-efficiency", eff, "",
                    "fraction of the ceiling at " + path + " its prefill GEMMs reach (engines.tsv names the precision)"
                            + (told ? "" : "; its fused attention runs at the same fraction, the engine's fit rows not "
                            + "telling the two apart") + (rows.isEmpty() ? " (no fit row: left at the roofline)" : ""),
                    ids, rows.isEmpty() ? null : atBound(eff, 0.01, 1.0)));
        }
        if (told) {
            terms.add(new Term(group + ".attention-efficiency", bestAttention, "",
                    "fraction of the fused-attention ceiling (the roofline's FlashAttention share of the GEMM rate at its "
                            + "precision) the engine's prefill attention reaches, "
                            + "whatever its GEMM path (rows of different prompt lengths tell it apart)", allIds,
                    atBound(bestAttention, PREFILL_ATTENTION[0], 1.0)));
        }
        terms.add(new Term(group + ".traffic-overlap", bestForm == 0 ? 1 : 0, "",
                "1: weight and KV traffic overlap each operation's GEMM time (the roofline's max); 0: they add to it "
                        + "(the form with the smaller median over all the engine's fit rows)", allIds));
    }

    /** Decode bandwidth efficiencies searched: 0.05 .. 1 of the basis's read bandwidth, log-spaced. */
    static final double[] DECODE_BANDWIDTH = logGrid(0.05, 1.0, 120);

    /** Decode GEMM efficiencies searched: 0.05 .. 1 of the ceiling at the engine's GEMM precision, log-spaced. */
    static final double[] DECODE_GEMM = logGrid(0.05, 1.0, 40);

    /**
     * A decode group's three terms: the bandwidth efficiency of its memory-bound time, the cost per kernel (told only
     * by rows whose engine has a kernel count) and the GEMM efficiency of its compute-bound time (told only by rows whose
     * batch puts GEMMs on the compute side of the roofline: changing it over its range moves them). A term no row tells
     * is left at the roofline's value and says so. The least median |log(predicted/published)| over the full grid.
     */
    static void fitDecode(List<Term> terms, Map<String, double[]> values, List<Prepared> rows, String group,
                                  String engine, List<String> ids, String noRow) {
        // The cost per kernel is told apart from the bandwidth efficiency only by rows of different kernel counts;
        // else it is the pooled engines' (the typical group's) value.
        double[] typical = values.get(Kind.DECODE.label() + "." + TYPICAL);
        boolean counted = rows.stream().filter(p -> p.kernels() > 0).mapToDouble(p -> p.kernels()).distinct().count() >= 2;
        boolean borrowed = !counted && typical != null && rows.stream().anyMatch(p -> p.kernels() > 0);
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
                        errors[j] = Math.abs(Math.log(rows.get(j).fitted(b, k, g) / rows.get(j).row().published()));
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

    static DecodeSetup inferenceSetup(PublishedRow row, Engine.Gemm gemm, WeightScheme weights) {
        int prompt = row.kind() == Kind.DECODE ? Math.max(1, row.context()) : row.tokens();
        return new DecodeSetup(Math.max(1, row.context()), row.batch(), prompt, weights, row.kvCache(), gemm.precision(), 1);
    }

    static String gemmNote(Engine.Gemm gemm) {
        return "GEMM in " + gemm.precision().label() + " (engines.tsv: " + gemm.rule().engine() + " "
                + gemm.rule().backend() + " " + gemm.family() + ")" + (gemm.note() == null ? "" : "; " + gemm.note());
    }

    /** The machine's published graph-node launch cost, the least a kernel boundary costs (0 where none is published). */
    static double graphLaunch(Machine machine) {
        Ceiling launch = Machines.publishedGraphLaunch(machine);
        return launch == null ? 0 : launch.value(Basis.MEASURED);
    }

    static Prepared decode(PublishedRow row, Transformer tf, Machine machine, boolean hasMeasured) {
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

    static Prepared prefill(PublishedRow row, Transformer tf, Machine machine, boolean hasMeasured) {
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
        boolean firstToken = row.unit().equals(PublishedRow.TIME_TO_FIRST_TOKEN);
        List<membound.model.roofline.Operation> step = DecodeEstimator.decodeStep(tf, setup);
        double[][] stepMeasured = EnginePrefill.split(step, Ceilings.of(machine, Basis.MEASURED, 1, null));
        double[][] stepDatasheet = EnginePrefill.split(step, Ceilings.of(machine, Basis.DATASHEET, 1, null));
        EngineKernels.Count stepCount = EngineKernels.perStep(engine, tf, weights, row.batch());
        double stepKernels = stepCount == null ? 0 : stepCount.kernels();
        // The second value picks the form: 0 = each operation's GEMM time and traffic overlap (the roofline's max),
        // 1 = they do not (their sum); the third is the cost per kernel, the fourth and fifth the decode's bandwidth
        // and GEMM efficiencies (all three the same engine's decode terms).
        double floor = graphLaunch(machine);
        // The sixth is the fused attention's efficiency, NaN where it runs at the GEMMs' (v[0]).
        Model m = v -> hasMeasured ? tokens / (EnginePrefill.seconds(measured, v[0], attention(v), v[1] == 0)
                + kernels * Math.max(v[2], floor) + (firstToken ? EnginePrefill.decodeSeconds(stepMeasured, v[3], v[4])
                + stepKernels * Math.max(v[2], floor) : 0)) : Double.NaN;
        Model d = v -> tokens / (EnginePrefill.seconds(datasheet, v[0], attention(v), v[1] == 0)
                + kernels * Math.max(v[2], floor)
                + (firstToken ? EnginePrefill.decodeSeconds(stepDatasheet, v[3], v[4])
                + stepKernels * Math.max(v[2], floor) : 0));
        return new Prepared(row, m, d, hasMeasured, gemmNote(gemm) + (count == null ? "" : "; " + count.source())
                + (firstToken ? "; a time to first token: the prefill and the first decode step" : ""),
                PublishedValidation.prefillPath(gemm), kernels);
    }

    /** The fused attention's efficiency of a prefill's term values: its own where fitted, else the GEMMs'. */
    static double attention(double[] v) {
        return v.length > 5 && !Double.isNaN(v[5]) ? v[5] : v[0];
    }
}
