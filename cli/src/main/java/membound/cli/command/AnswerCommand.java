package membound.cli.command;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import membound.cli.options.PredictOptions;
import membound.model.Estimator;
import membound.model.TrainerEstimate;
import membound.model.machine.Machine;
import membound.model.machine.Machines;
import membound.model.machine.Overrides;
import membound.model.sweep.Sweeps;
import membound.model.training.TrainingSetup;
import membound.model.workload.Presets;
import membound.model.workload.Workload;
import membound.profile.Profile;
import membound.profile.ProfileDirectory;
import membound.profile.ProfileJson;
import membound.report.AnswerInput;
import membound.report.AnswerRenderer;
import membound.report.ReportFiles;
import membound.report.ReportRenderer;
import membound.report.chart.AnswerCharts;
import membound.report.chart.Figure;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.BadInputException;
import membound.vocabulary.DeviceKind;
import membound.vocabulary.text.Numbers;
import membound.vocabulary.units.Units;
import membound.vocabulary.text.Launcher;

/**
 * {@code membound answer}: the question membound exists for, on one page — how model size, memory
 * bandwidth, precision, sharing and each mitigation move the training time of one workload on the
 * profile's machine and on the machines it is compared with. Every sweep runs in-process through the
 * model; every row of a sweep is the prediction of a {@code membound predict} command the page prints.
 */
@Command(name = "answer",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
                "One page that answers how bandwidth, model size, precision, sharing and each mitigation move this "
                        + "workload's training time on the profile's machine and on HBM machines: a written answer, "
                        + "then a chart and a table for each (index.html with PNG and SVG charts, in a new directory).",
                "Takes every option of 'membound predict' for the setup as given; --compare defaults to "
                        + "dgx-spark,gh200,h100,h200, less the profile's own platform where the profile measured its "
                        + "GPU. What each part shows: docs/answer.md."},
        footer = {"", "Example:",
                "  ${sys:membound.command:-scripts/membound} answer --hardware dgx-spark --model llama-3.1-8b \\",
                "      --out answer-llama"})
public final class AnswerCommand implements Callable<Integer> {

    /** The machines compared when --compare is not given: the Spark and three HBM machines. */
    public static final List<String> DEFAULT_COMPARE = List.of("dgx-spark", "gh200", "h100", "h200");
    /** The model-size sweep when --sizes is not given: every preset, smallest first. */
    static final List<String> DEFAULT_SIZES = Presets.NAMES;
    /** Columns of the bandwidth map. */
    static final int MAP_COLUMNS = 48;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--out", required = true, paramLabel = "DIR", order = -1,
            description = "A new (or empty) directory for index.html and the charts; nothing is ever overwritten.")
    Path out;

    @Option(names = "--users", paramLabel = "K", order = -1, defaultValue = "4",
            description = "Largest number of users sharing one machine in the sharing sweep (default 4).")
    int users;

    @Option(names = "--sizes", paramLabel = "MODEL", split = ",", splitSynopsisLabel = ",", order = -1,
            description = "Models of the model-size sweep: presets or config.json paths (default: every preset).")
    List<String> sizes;

    @Mixin
    PredictOptions prediction;

    @Override
    public Integer call() {
        long started = System.nanoTime();
        ReportFiles.checkWritable(out);
        AnswerInput input = input();
        ReportRenderer.Rendered rendered = AnswerRenderer.render(input);
        ReportFiles.writeNew(out, rendered.files());
        PrintWriter w = spec.commandLine().getOut();
        w.printf(Locale.ROOT, "wrote %s: the answer and %d charts as PNG and SVG, in %.1f s%n", out,
                rendered.drawn().size(), (System.nanoTime() - started) / 1e9);
        for (Figure.Drawn d : rendered.drawn()) {
            w.printf(Locale.ROOT, "  %-28s %s%n", d.stem(), d.title());
        }
        if (!rendered.omitted().isEmpty()) {
            w.printf(Locale.ROOT, "not drawn (the page says why): %s%n",
                    String.join(", ", rendered.omitted().stream().map(Figure::stem).toList()));
        }
        w.printf(Locale.ROOT, "open %s in a browser (no network needed)%n", out.resolve(ReportRenderer.INDEX));
        return 0;
    }

    /** Everything the page shows, from the parsed command line; checks every option first and writes nothing. */
    AnswerInput input() {
        CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
        boolean fromProfile = prediction.profile().given();
        if (fromProfile == (prediction.hardware() != null)) {
            throw new BadInputException("machine must be given once: --profile PATH|latest (a profile "
                    + Launcher.command("calibrate") + " wrote) or --hardware NAME (a catalog entry, e.g. dgx-spark): "
                    + (fromProfile ? "profile=" + prediction.profile().reference() + ", hardware=" + prediction.hardware()
                    : "neither given"));
        }
        if (prediction.decode()) {
            throw new BadInputException("decode must be left out: the answer is about training; use membound predict "
                    + "--decode for tokens/s: decode=true");
        }
        if (!parsed.hasMatchedOption("--model")) {
            throw new BadInputException("model must be given: --model PRESET|config.json (the answer sweeps a "
                    + "transformer's size, so --mlp is not enough)");
        }
        if (users < 1 || users > 16) {
            throw new BadInputException("users must be between 1 and 16: users=" + users);
        }
        prediction.checkConsistent();
        Workload workload = prediction.workload();
        prediction.checkAgainst(workload);
        TrainingSetup setup = prediction.trainingSetup();
        Path profileFile = null;
        Profile read = null;
        List<String> compare = parsed.hasMatchedOption("--compare") ? prediction.compare() : DEFAULT_COMPARE;
        if (fromProfile) {
            profileFile = ProfileDirectory.repositoryDefault().resolve(prediction.profile().reference());
            read = ProfileJson.read(profileFile);
            if (!parsed.hasMatchedOption("--compare")) {
                compare = defaultCompare(read, prediction.device());
            }
        }
        Overrides overrides = prediction.overrides(parsed.hasMatchedOption("--compare") ? List.of() : compare);
        Machine profile = fromProfile ? Machines.fromProfile(read, profileFile.toString(), prediction.device(), overrides)
                : Machines.datasheet(prediction.hardware(), overrides);
        List<Machine> machines = new ArrayList<>();
        machines.add(profile);
        for (String name : compare) {
            Machine other = Machines.datasheet(name, overrides);
            // The page's own machine is not compared with itself (answer --hardware dgx-spark and the default list).
            if (!other.id().equals(profile.id())) {
                machines.add(other);
            }
        }
        List<Workload> models = models(workload);
        List<String> base = ReportCommand.without(arguments(parsed), "--out", "--users", "--sizes");
        String predictCommand = command(base);

        List<Sweeps.Point> asGiven = Sweeps.modelSize(List.of(workload), setup, machines);
        // What predict prints first for the setup as given: the roofline bound plus the trainer's fitted terms.
        TrainerEstimate expected = Estimator.predict(workload, setup, profile, prediction.trainer(),
                prediction.trainerNamed()).expected();
        List<Sweeps.Point> sizePoints = Sweeps.modelSize(models, setup, machines);
        double measured = profile.device().mainMemory().ceiling(AccessPattern.READ).value(
                membound.model.machine.Basis.MEASURED);
        double highest = measured;
        List<AnswerCharts.Marker> markers = new ArrayList<>();
        for (Machine m : machines) {
            var ceiling = m.device().mainMemory().ceiling(AccessPattern.READ);
            double bw = ceiling.value(membound.model.machine.Basis.MEASURED);
            String label = m.id().startsWith("profile:") ? "profile" : m.id();
            markers.add(new AnswerCharts.Marker(label + " " + Units.formatBandwidth(bw), bw, m.id(), false));
            highest = Math.max(highest, bw);
            if (ceiling.hasDatasheet() && Math.abs(ceiling.value(membound.model.machine.Basis.DATASHEET) / bw - 1) > 0.01) {
                double ds = ceiling.value(membound.model.machine.Basis.DATASHEET);
                markers.add(new AnswerCharts.Marker(label + " datasheet " + Units.formatBandwidth(ds), ds, m.id(), true));
                highest = Math.max(highest, ds);
            }
        }
        double high = Math.max(20, 2 * highest / measured);
        List<Sweeps.BandwidthMap> maps = new ArrayList<>();
        maps.add(Sweeps.bandwidthMap(models, setup, profile, 0.1, high, MAP_COLUMNS));
        if (machines.size() > 1) {
            // The first compared machine too (the Spark by default): the profile may be another machine.
            Machine first = machines.get(1);
            double its = first.device().mainMemory().ceiling(AccessPattern.READ).value(membound.model.machine.Basis.MEASURED);
            maps.add(Sweeps.bandwidthMap(models, setup, first, 0.1, Math.max(20, 2 * highest / its), MAP_COLUMNS));
        }
        List<Sweeps.Variant> precisions = new ArrayList<>();
        for (String tune : List.of("full", "lora")) {
            for (String p : List.of("fp32", "bf16", "fp8", "fp4")) {
                precisions.add(variant((tune.equals("full") ? "training, " : "LoRA fine-tuning, ") + p, base,
                        "--precision", p, "--finetune", tune));
            }
        }
        List<Sweeps.Variant> mitigations = mitigations(base, setup);
        return new AnswerInput(workload.name(), setupText(workload, setup), predictCommand, setup.tokensPerStep() == 0 ? 0
                : Math.round(setup.steps() * setup.tokensPerStep()), asGiven, sizePoints, maps, markers,
                Sweeps.variants(workload, precisions, machines), Sweeps.sharing(workload, setup, machines, users),
                Sweeps.variants(workload, mitigations, machines.subList(0, Math.min(2, machines.size()))), Launcher.command("answer ") + String.join(" ",
                arguments(parsed)), expected);
    }

    /**
     * The machines a profile is compared with when {@code --compare} is not given: {@link #DEFAULT_COMPARE} less the
     * catalog entry of the profile's own platform where the profile trains on that platform's GPU (the example Spark
     * profile, or a Spark's own calibration with its GPU measured): one page, one Spark. A CPU-only profile of a Spark
     * keeps the catalog's Spark, whose GPU it did not measure.
     */
    static List<String> defaultCompare(Profile profile, String deviceId) {
        String platform = profile.nominal().platformId();
        boolean trainsOnGpu = deviceId != null ? profile.device(deviceId).map(d -> d.kind() == DeviceKind.GPU).orElse(false)
                : profile.devices().stream().anyMatch(d -> d.kind() == DeviceKind.GPU);
        if (platform == null || !trainsOnGpu) {
            return DEFAULT_COMPARE;
        }
        return DEFAULT_COMPARE.stream().filter(name -> !Machines.datasheet(name).id().equals(platform)).toList();
    }

    /** The sweep's models, smallest first, with the workload itself among them. */
    private List<Workload> models(Workload workload) {
        List<Workload> models = new ArrayList<>();
        for (String name : sizes == null ? DEFAULT_SIZES : sizes) {
            models.add(Presets.resolve(name));
        }
        if (models.stream().noneMatch(m -> m.name().equals(workload.name()))) {
            models.add(workload);
        }
        models.sort(Comparator.comparingLong(m -> m.parameters().total()));
        return models;
    }

    /** Each mitigation as the flags that change the setup as given; one that is the setup as given is left out. */
    private List<Sweeps.Variant> mitigations(List<String> base, TrainingSetup setup) {
        List<Sweeps.Variant> list = new ArrayList<>();
        int accumulation = Math.max(8, 2 * setup.gradientAccumulation());
        list.add(variant("gradient accumulation " + accumulation, base, "--grad-accum", Integer.toString(accumulation)));
        list.add(variant("activation checkpointing (full)", base, "--checkpointing", "full"));
        list.add(variant("activation checkpointing (selective)", base, "--checkpointing", "selective"));
        list.add(variant("optimizer offloaded to the host", base, "--offload", "optimizer"));
        list.add(variant("layer-wise weight offloading", base, "--offload", "both"));
        list.add(variant("2:4 structured pruning", base, "--pruning", "2:4"));
        list.add(variant("LoRA", base, "--finetune", "lora"));
        list.add(variant("QLoRA (NF4 base)", base, "--finetune", "qlora"));
        list.add(variant("FP8 weights and compute", base, "--precision", "fp8"));
        list.add(variant("FP4 weights and compute", base, "--precision", "fp4"));
        list.add(variant("8-bit Adam states", base, "--optimizer", "adam8bit"));
        list.removeIf(v -> v.setup().equals(setup));
        return list;
    }

    /** The setup as given with these options set (each replacing the user's own), and the command that gives it. */
    private static Sweeps.Variant variant(String label, List<String> base, String... optionsAndValues) {
        List<String> args = new ArrayList<>(base);
        for (int i = 0; i < optionsAndValues.length; i += 2) {
            args = ReportCommand.without(args, optionsAndValues[i]);
        }
        for (String s : optionsAndValues) {
            args.add(s);
        }
        return new Sweeps.Variant(label, command(args), parse(args).trainingSetup());
    }

    /** Predict's options parsed from arguments, as membound predict would parse them. */
    private static PredictOptions parse(List<String> args) {
        Holder holder = new Holder();
        CommandLine line = new CommandLine(holder);
        line.setOut(new PrintWriter(new StringWriter()));
        line.setErr(new PrintWriter(new StringWriter()));
        try {
            line.parseArgs(args.toArray(String[]::new));
        } catch (CommandLine.ParameterException e) {
            throw new BadInputException((e.getMessage() == null ? "bad option" : e.getMessage().strip())
                    + " (see '" + Launcher.command("answer --help") + "')");
        }
        holder.options.checkConsistent();
        return holder.options;
    }

    @Command(name = "predict")
    static final class Holder {
        @Mixin
        PredictOptions options;
    }

    private static String command(List<String> args) {
        StringBuilder text = new StringBuilder(Launcher.command("predict"));
        for (String a : args) {
            text.append(' ').append(a.matches("[A-Za-z0-9_./:=,+@%-]+") ? a : "'" + a.replace("'", "'\\''") + "'");
        }
        return text.toString();
    }

    private static List<String> arguments(CommandLine.ParseResult parsed) {
        List<String> all = parsed.originalArgs();
        int at = all.indexOf(parsed.commandSpec().name());
        return new ArrayList<>(at < 0 ? all : all.subList(at + 1, all.size()));
    }

    private static String setupText(Workload workload, TrainingSetup setup) {
        return String.format(Locale.ROOT, "%s, %s parameters; %s %s, sequence %d, micro-batch %d, gradient accumulation %d, "
                        + "checkpointing %s, %s tokens", workload.name(), Numbers.roundedCount(workload.parameters().total()),
                setup.fineTuning().mode().name().toLowerCase(Locale.ROOT), setup.activationPrecision().label(),
                setup.sequenceLength(), setup.microBatchSize(), setup.gradientAccumulation(),
                setup.checkpointing().name().toLowerCase(Locale.ROOT),
                Numbers.roundedCount(setup.steps() * setup.tokensPerStep()));
    }
}
