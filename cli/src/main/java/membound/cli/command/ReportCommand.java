package membound.cli.command;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

import membound.cli.options.OutputFormat;
import membound.cli.options.PredictOptions;
import membound.model.machine.Machine;
import membound.model.machine.Machines;
import membound.model.machine.Overrides;
import membound.profile.Profile;
import membound.profile.ProfileDirectory;
import membound.profile.ProfileJson;
import membound.report.MachineOutcome;
import membound.report.ReportFiles;
import membound.report.ReportInput;
import membound.report.ReportRenderer;
import membound.report.SensitivityCurve;
import membound.report.TrainingRun;
import membound.report.chart.Figure;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.BadInputException;
import membound.vocabulary.text.Launcher;

/**
 * {@code membound report}: charts of a profile and of a prediction on it, as PNG and SVG, tied together
 * by one self-contained {@code index.html}, in a new directory.
 */
@Command(name = "report",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
                "Draws a profile and a prediction on it: the roofline with the workload's operations, bandwidth by working "
                        + "set, thread scaling, measured against nominal, the step by operation class on several "
                        + "machines, step time against bandwidth, and load latency; each chart as PNG and SVG, with "
                        + "index.html tying them together (self-contained: open it with no network).",
                "Takes every option of 'membound predict' for the workload; without --model or --mlp only the profile's "
                        + "charts are drawn. A chart the profile has no data for is left out and the page says why.",
                "What each chart shows: docs/report.md."},
        footer = {"", "Examples:",
                "  ${sys:membound.command:-scripts/membound} report --profile latest --out report-here",
                "  ${sys:membound.command:-scripts/membound} report --hardware dgx-spark --model llama-3.1-8b --finetune lora \\",
                "      --compare gh200,h100 --out report-llama"})
public final class ReportCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--out", required = true, paramLabel = "DIR", order = -1,
            description = "A new (or empty) directory for index.html and the charts; nothing is ever overwritten.")
    Path out;

    // Every option of predict, parsed by predict's own declarations (and checked again when predict runs).
    @Mixin
    PredictOptions prediction;

    @Override
    public Integer call() {
        ReportFiles.checkWritable(out);
        ReportInput input = input();
        OutputFormat format = prediction.format();
        ReportRenderer.Rendered rendered = ReportRenderer.render(input);
        ReportFiles.writeNew(out, rendered.files());
        print(spec.commandLine().getOut(), format, rendered);
        return 0;
    }

    /** Everything the report draws, from the parsed command line; checks every option first and writes nothing. */
    public ReportInput input() {
        CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
        ReportFiles.checkWritable(out);
        String profileReference = parsed.matchedOptionValue("--profile", null);
        Path profileFile = profileReference == null ? null : ProfileDirectory.repositoryDefault().resolve(profileReference);
        String hardware = prediction.hardware();
        if (profileFile == null && hardware == null) {
            throw new BadInputException("machine must be given: --profile PATH|latest (a profile "
                    + Launcher.command("calibrate") + " wrote) or --hardware NAME with a workload (a catalog entry, e.g. "
                    + "dgx-spark): neither given");
        }
        boolean workloadGiven = parsed.hasMatchedOption("--model") || parsed.hasMatchedOption("--mlp");
        if (profileFile == null && !workloadGiven) {
            throw new BadInputException("hardware needs a workload: a report on a catalog entry draws a prediction; "
                    + "add --model PRESET (or --mlp W0,W1,...): hardware=" + hardware);
        }
        if (parsed.hasMatchedOption("--decode")) {
            throw new BadInputException("decode must be left out: a report charts training (the roofline, the step "
                    + "breakdown); use membound predict --decode for tokens/s: decode=true");
        }
        prediction.format(); // --format is checked with the other options, before anything is drawn
        prediction.checkConsistent();
        int operationsShown = parsed.matchedOptionValue("--operations", 12);
        if (operationsShown < 0) {
            throw new BadInputException("operations must be 0 (all) or positive: operations=" + operationsShown);
        }
        List<String> predictArgs = predictArgs(parsed);
        ReportInput input;
        if (workloadGiven) {
            List<MachineOutcome> machines = PredictRuns.outcomes(predictArgs);
            Overrides overrides = Overrides.parse(parsed.matchedOptionValue("--memory-bandwidth", List.of()),
                    parsed.matchedOptionValue("--peak-flops", List.of()));
            TrainingRun run = machines.get(0).run();
            if (profileFile == null) {
                Machine machine = Machines.datasheet(hardware, overrides);
                input = new ReportInput(null, null, machine.device().id(), machines,
                        sweep(without(predictArgs, "--compare"), machine, run), null, commandLine(parsed), operationsShown);
            } else {
                Machine machine = Machines.profile(profileFile, parsed.matchedOptionValue("--device", null), overrides);
                Profile profile = ProfileJson.read(profileFile);
                input = new ReportInput(profile, profileFile.toString(), machine.device().id(), machines,
                        sweep(without(predictArgs, "--compare", "--hardware"), machine, run), null, commandLine(parsed),
                        operationsShown);
            }
        } else {
            if (parsed.hasMatchedOption("--compare") || parsed.hasMatchedOption("--hardware")) {
                throw new BadInputException("compare needs a workload: add --model PRESET (or --mlp W0,W1,...) to "
                        + "compare machines");
            }
            Profile profile = ProfileJson.read(profileFile);
            input = new ReportInput(profile, profileFile.toString(), null, List.of(), null,
                    "no workload given: add --model PRESET (or --mlp W0,W1,...) with the options of membound predict "
                            + "to draw the training step", commandLine(parsed), operationsShown);
        }
        return input;
    }

    /** The command line less report's own option, for predict. */
    static List<String> predictArgs(CommandLine.ParseResult parsed) {
        return without(arguments(parsed), "--out");
    }

    /** This subcommand's arguments: what follows the subcommand's name on the command line. */
    private static List<String> arguments(CommandLine.ParseResult parsed) {
        List<String> all = parsed.originalArgs();
        String name = parsed.commandSpec().name();
        int at = all.indexOf(name);
        return new ArrayList<>(at < 0 ? all : all.subList(at + 1, all.size()));
    }

    /** The arguments without the given options and their values ({@code --opt V} and {@code --opt=V}). */
    static List<String> without(List<String> args, String... options) {
        List<String> kept = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            boolean dropped = false;
            for (String option : options) {
                if (a.equals(option)) {
                    i++;
                    dropped = true;
                } else if (a.startsWith(option + "=")) {
                    dropped = true;
                }
            }
            if (!dropped) {
                kept.add(a);
            }
        }
        return kept;
    }

    /** Step time against bandwidth on the profile's machine only: one predict run per point. */
    static SensitivityCurve sweep(List<String> base, Machine machine, TrainingRun run) {
        return SensitivityCurve.sweep(machine.device().mainMemory().ceiling(AccessPattern.READ), run,
                bandwidth -> stepAt(base, bandwidth));
    }

    private static double stepAt(List<String> base, double bytesPerSecond) {
        List<String> args = new ArrayList<>(base);
        args.add("--memory-bandwidth");
        args.add(String.format(Locale.ROOT, "%.0fB/s", bytesPerSecond));
        return PredictRuns.stepSeconds(args);
    }

    private static String commandLine(CommandLine.ParseResult parsed) {
        StringBuilder text = new StringBuilder(Launcher.command("report"));
        for (String a : arguments(parsed)) {
            text.append(' ').append(a.matches("[A-Za-z0-9_./:=,+@%-]+") ? a : "'" + a.replace("'", "'\\''") + "'");
        }
        return text.toString();
    }

    private void print(PrintWriter w, OutputFormat format, ReportRenderer.Rendered rendered) {
        Path index = out.resolve(ReportRenderer.INDEX);
        if (format == OutputFormat.JSON) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("out", out.toString());
            json.put("index", index.toString());
            json.put("files", new ArrayList<>(rendered.files().keySet()));
            List<Map<String, String>> omitted = new ArrayList<>();
            for (Figure.Omitted o : rendered.omitted()) {
                omitted.add(Map.of("chart", o.stem(), "title", o.title(), "reason", o.reason()));
            }
            json.put("omitted", omitted);
            try {
                w.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(json));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("report summary did not serialize", e);
            }
            return;
        }
        w.printf(Locale.ROOT, "wrote %s: %d charts as PNG and SVG, and index.html%n", out, rendered.drawn().size());
        for (Figure.Drawn d : rendered.drawn()) {
            w.printf(Locale.ROOT, "  %-34s %s%n", d.stem(), d.title());
        }
        if (!rendered.omitted().isEmpty()) {
            w.printf(Locale.ROOT, "not drawn (the page says why): %s%n",
                    String.join(", ", rendered.omitted().stream().map(Figure::stem).toList()));
        }
        w.printf(Locale.ROOT, "open %s in a browser (no network needed)%n", index);
    }
}
