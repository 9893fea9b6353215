package membound.model.trainer;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import membound.model.ResourceTable;
import membound.model.training.Overheads;
import membound.model.training.Parallelism;
import membound.vocabulary.BadInputException;
import membound.vocabulary.text.Names;

/**
 * A training framework as {@code predict --trainer} names it, with the terms a per-operation roofline misses for
 * it ({@link Overheads}: GEMM and attention efficiency, memory-bound kernel efficiency, per-operation cost) and what it can
 * run (ZeRO stages, tensor and pipeline parallelism, whether it overlaps the data-parallel gradient reduction with
 * the backward pass). Two committed tables hold them: {@code trainers/trainers.tsv} (one row per trainer: which
 * published-set group its terms come from and why, its capabilities, a public source for them) and {@code
 * trainers/trainer-terms.tsv} (each group's fitted values and the published-set rows they were fitted on, as
 * {@code membound validate --published} fits them; a test in the validate module fails when the two disagree).
 */
public record Trainer(String id, String name, List<String> aliases, String termsGroup, String termsWhy,
                      int maxZeroStage, boolean tensorParallel, boolean pipelineParallel,
                      boolean overlapsCommunication, String attention, String source, List<Term> terms,
                      boolean alltoallDispatcher) {

    /** One fitted term of a group: name, value, unit and the published-set rows it was fitted on. */
    public record Term(String group, String name, double value, String unit, List<String> fittedOn) {

        public Term {
            fittedOn = List.copyOf(fittedOn);
        }

        /** The term as a line of output: value, unit and the rows. */
        public String describe() {
            return String.format(Locale.ROOT, "%s.%s = %s%s (fitted by 'membound validate --published' on %d rows: %s)",
                    group, name, trim(value), unit.isEmpty() ? "" : " " + unit, fittedOn.size(), rows(fittedOn));
        }

        private static String rows(List<String> ids) {
            return ids.size() <= 8 ? String.join(", ", ids)
                    : String.join(", ", ids.subList(0, 6)) + ", ... " + ids.get(ids.size() - 1);
        }
    }

    /** The id of the trainer {@code predict} uses when none is named. */
    public static final String DEFAULT_ID = "typical";

    public static final String TRAINERS = "/membound/model/trainers/trainers.tsv";
    public static final String TERMS = "/membound/model/trainers/trainer-terms.tsv";

    /** The term names every group has, in {@link Overheads}' order. */
    public static final List<String> TERM_NAMES = Overheads.TERMS;

    private static final Map<String, List<Term>> GROUPS = loadTerms();
    private static final List<Trainer> TABLE = loadTrainers();

    public Trainer {
        aliases = List.copyOf(aliases);
        terms = List.copyOf(terms);
    }

    /** Every trainer of the table, the default first. */
    public static List<Trainer> all() {
        return TABLE;
    }

    public static List<String> ids() {
        List<String> ids = new ArrayList<>();
        TABLE.forEach(t -> ids.add(t.id()));
        return ids;
    }

    /** The typical PyTorch trainer: what {@code predict} applies when no {@code --trainer} is given. */
    public static Trainer defaultTrainer() {
        return parse(DEFAULT_ID);
    }

    /** The trainer by id or alias (case-insensitive); one line naming the known ones and the close matches. */
    public static Trainer parse(String text) {
        String key = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        for (Trainer t : TABLE) {
            if (t.id().equals(key) || t.aliases().contains(key)) {
                return t;
            }
        }
        List<String> known = new ArrayList<>();
        for (Trainer t : TABLE) {
            known.add(t.id());
            known.addAll(t.aliases());
        }
        throw new BadInputException("trainer must be one of " + String.join(", ", ids()) + ": trainer=" + text
                + Names.suggestion(text == null ? "" : text, known));
    }

    /** The terms of one published-set group, as the committed table holds them (empty when it has none). */
    public static List<Term> group(String group) {
        return GROUPS.getOrDefault(group, List.of());
    }

    public static List<String> groups() {
        return new ArrayList<>(GROUPS.keySet());
    }

    /**
     * The fused attention kernel this trainer runs on a day (null: today): its {@code attention} column, {@code fa2},
     * {@code fa3}, or {@code fa3 from YYYY-MM-DD} (FlashAttention-2 before that day, as PyTorch's SDPA until 2.5).
     */
    public membound.model.training.AttentionKernel attentionKernel(java.time.LocalDate day) {
        String[] parts = attention.split(" from ");
        membound.model.training.AttentionKernel kernel = membound.model.training.AttentionKernel.parse(parts[0]);
        if (parts.length > 1 && day != null && day.isBefore(java.time.LocalDate.parse(parts[1]))) {
            return membound.model.training.AttentionKernel.FA2;
        }
        return kernel;
    }

    /** The terms as the roofline takes them. */
    public Overheads overheads() {
        return new Overheads(value("compute-efficiency"), value("fp8-compute-efficiency"), value("attention-efficiency"),
                value("memory-efficiency"), value("expert-efficiency"), value("alltoall-dispatch") * 1e-6,
                value("per-operation") * 1e-6,
                "trainer " + id + " (" + termsGroup + " terms, " + TERMS + ")");
    }

    public double value(String term) {
        for (Term t : terms) {
            if (t.name().equals(term)) {
                return t.value();
            }
        }
        throw new IllegalStateException(TERMS + ": group " + termsGroup + " has no " + term);
    }

    /**
     * Refuses a layout this trainer cannot run, in one line naming the rule: a ZeRO stage it lacks, tensor or
     * pipeline parallelism it does not have.
     */
    public void check(Parallelism parallelism) {
        check(parallelism, membound.model.training.MoeDispatcher.FUSED);
    }

    /** The same, and a token dispatcher the trainer lacks: Megatron-Core's all-to-all one outside Megatron-Core. */
    public void check(Parallelism parallelism, membound.model.training.MoeDispatcher dispatcher) {
        if (dispatcher == membound.model.training.MoeDispatcher.ALLTOALL && !alltoallDispatcher) {
            throw new BadInputException("moe-dispatcher must be fused with trainer " + id + " (Megatron-Core's "
                    + "all-to-all token dispatcher runs in megatron and nemo; " + id + " routes tokens its own way): "
                    + "moe-dispatcher=alltoall, trainer=" + id);
        }
        if (parallelism.zeroStage() > maxZeroStage) {
            throw new BadInputException("zero must be at most " + maxZeroStage + " with trainer " + id + " (" + source
                    + "): zero=" + parallelism.zeroStage() + ", trainer=" + id);
        }
        if (parallelism.tensorParallel() > 1 && !tensorParallel) {
            throw new BadInputException("tensor-parallel must be 1 with trainer " + id + " (it has no tensor "
                    + "parallelism: " + source + "): tensor-parallel=" + parallelism.tensorParallel() + ", trainer=" + id);
        }
        if (parallelism.pipelineParallel() > 1 && !pipelineParallel) {
            throw new BadInputException("pipeline-parallel must be 1 with trainer " + id + " (it has no pipeline "
                    + "parallelism: " + source + "): pipeline-parallel=" + parallelism.pipelineParallel()
                    + ", trainer=" + id);
        }
    }

    /** What the output says about the terms: where they come from and each value with its rows. */
    public List<String> describeTerms() {
        List<String> lines = new ArrayList<>();
        lines.add("trainer " + id + " (" + name + "): terms of the published set's " + termsGroup + " rows; " + termsWhy);
        for (Term t : terms) {
            lines.add(t.describe());
        }
        return lines;
    }

    private static String trim(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.format(Locale.ROOT, "%.0f", v)
                : String.format(Locale.ROOT, "%.4g", v);
    }


    private static Map<String, List<Term>> loadTerms() {
        Map<String, List<Term>> groups = new LinkedHashMap<>();
        for (String[] f : ResourceTable.rows(TERMS, 5)) {
            groups.computeIfAbsent(f[0], g -> new ArrayList<>()).add(new Term(f[0], f[1], Double.parseDouble(f[2]), f[3],
                    List.of(f[4].split(","))));
        }
        for (Map.Entry<String, List<Term>> e : groups.entrySet()) {
            List<String> names = new ArrayList<>();
            e.getValue().forEach(t -> names.add(t.name()));
            if (!names.equals(TERM_NAMES)) {
                throw new IllegalStateException(TERMS + ": group " + e.getKey() + " must have " + TERM_NAMES + ": " + names);
            }
            e.setValue(List.copyOf(e.getValue()));
        }
        return groups;
    }

    private static List<Trainer> loadTrainers() {
        List<Trainer> trainers = new ArrayList<>();
        for (String[] f : ResourceTable.rows(TRAINERS, 12)) {
            List<Term> terms = GROUPS.get(f[3]);
            if (terms == null) {
                throw new IllegalStateException(TRAINERS + ": trainer " + f[0] + " names terms group " + f[3] + ", which "
                        + TERMS + " lacks");
            }
            trainers.add(new Trainer(f[0], f[1], f[2].equals("-") ? List.of() : List.of(f[2].split(",")), f[3], f[4],
                    Integer.parseInt(f[5]), yes(f[6]), yes(f[7]), yes(f[8]), f[9], f[10], terms, yes(f[11])));
        }
        if (trainers.isEmpty() || !trainers.get(0).id().equals(DEFAULT_ID)) {
            throw new IllegalStateException(TRAINERS + ": the first row must be the default trainer " + DEFAULT_ID);
        }
        return List.copyOf(trainers);
    }

    private static boolean yes(String text) {
        return switch (text) {
            case "yes" -> true;
            case "no" -> false;
            default -> throw new IllegalStateException(TRAINERS + ": a capability must be yes or no: " + text);
        };
    }
}
