package membound.cli.command;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import membound.calibrator.imports.HardwareFileImport;
import membound.calibrator.imports.ImportFormat;
import membound.calibrator.imports.ImportedFigures;
import membound.calibrator.imports.ProfileImport;
import membound.calibrator.store.ProfileStore;
import membound.cli.options.OutputFormat;
import membound.cli.options.ProfilesDirOption;
import membound.profile.ProfileJson;
import membound.profile.Quality;
import membound.vocabulary.BadInputException;
import membound.vocabulary.text.Launcher;
import membound.vocabulary.Labelled;
import membound.vocabulary.LinkKind;

/**
 * {@code membound import --format TOOL FILE --into PROFILE}: a new profile with another tool's figures
 * added. The input profile is only read. Nothing is written unless every step succeeded.
 */
@Command(name = "import", mixinStandardHelpOptions = true,
        description = {"Adds figures measured by another tool to a profile and writes the result as a NEW profile; "
                + "the input profile is left as it was.",
                "Formats: stream (McCalpin stream.c 5.9/5.10, stream_mpi.c), stream-omp (the repository's own "
                        + "scripts/reference/stream-omp.c, one line per run), babelstream (text or --csv, MB/s or "
                        + "MiB/s, releases 0.9 to 5.0), likwid (likwid-bench 4.x/5.x), nvbandwidth (its -j JSON or "
                        + "text), nccl-tests (all_reduce_perf table of nccl-tests or rccl-tests).",
                "Another estimator's hardware file, llm-analysis (its GPU file) or calculon (its system file), is a "
                        + "machine of its own: it is written with --output as a profile by itself (no --into), its "
                        + "peaks on the datasheet basis, for predict --profile FILE or --compare profile:FILE.",
                "A new link's kind is inferred from the output (hosts, device names) unless --link-kind is given; "
                        + "the report says what was inferred and from what.",
                "Give --format twice to choose how this command reports: --format babelstream --format json."})
public final class ImportCommand implements Callable<Integer> {

    private static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9._:-]*");

    @Spec
    CommandSpec spec;

    @Option(names = "--format", required = true, paramLabel = "FORMAT",
            description = "the tool's output format (stream, stream-omp, babelstream, likwid, nvbandwidth, "
                    + "nccl-tests), or another estimator's hardware file (llm-analysis, calculon); "
                    + "given again as text or json, how this command reports")
    List<String> formats = new ArrayList<>();

    @Parameters(index = "0", paramLabel = "FILE", description = "the tool's output")
    Path file;

    @Option(names = "--into", paramLabel = "PROFILE",
            description = "the profile to add to: a file, latest or latest:<host> (it is not changed); not for "
                    + "llm-analysis and calculon, whose file is a machine of its own")
    String into;

    @Option(names = "--device", paramLabel = "ID", description = "device for bandwidth figures, and the GPU end of "
            + "an nvbandwidth link, or the device an llm-analysis or Calculon file describes (default: cpu for "
            + "stream, babelstream and likwid; gpu for nvbandwidth, nccl-tests, llm-analysis and calculon)")
    String device;

    @Option(names = "--device-name", paramLabel = "TEXT", description = "name of a device this import creates")
    String deviceName;

    @Option(names = "--unified-memory-with", paramLabel = "ID",
            description = "a device sharing the memory of a device this import creates (DGX Spark: cpu)")
    List<String> unifiedMemoryWith = new ArrayList<>();

    @Option(names = "--link", paramLabel = "ID", description = "link for link figures (default: cpu-<device> for "
            + "nvbandwidth, network for nccl-tests)")
    String link;

    @Option(names = "--link-kind", paramLabel = "KIND", description = "c2c, pcie, nvlink or network: overrides "
            + "the kind the output shows (nccl-tests: several hosts, network; one host, by device names; "
            + "nvbandwidth: GB10, GH200, GB200 c2c, other GPUs pcie)")
    String linkKind;

    @Option(names = "--from", paramLabel = "ID", description = "the device a new link starts from")
    String from;

    @Option(names = "--to", paramLabel = "ID", description = "the other end of a new link (default: peer for "
            + "nccl-tests)")
    String to;

    @Option(names = "--gpu-index", paramLabel = "N", description = "which GPU's column of nvbandwidth's matrices "
            + "(default: 0)")
    int gpuIndex;

    @Option(names = "--output", paramLabel = "FILE", description = "write the new profile here (must not exist) "
            + "instead of the profiles directory; required for llm-analysis and calculon")
    Path output;

    @Option(names = "--partial", description = "import an output cut off inside its table (nccl-tests without its "
            + "closing lines): the link is flagged partial-output with its largest size")
    boolean partial;

    @Mixin
    ProfilesDirOption profilesDir;

    @Override
    public Integer call() {
        ImportFormat tool = null;
        OutputFormat report = OutputFormat.TEXT;
        boolean reportGiven = false;
        for (String f : formats) {
            if (f.equals("text") || f.equals("json")) {
                if (reportGiven) {
                    throw new BadInputException("--format must name one report format (text or json): --format=" + f);
                }
                report = OutputFormat.of(f);
                reportGiven = true;
            } else {
                if (tool != null) {
                    throw new BadInputException("--format must name one input format (" + ImportFormat.names()
                            + "): --format=" + f);
                }
                tool = ImportFormat.of(f);
            }
        }
        if (tool == null) {
            throw new BadInputException("--format must name an input format (" + ImportFormat.names() + "): --format="
                    + String.join(",", formats));
        }
        checkId("--device", device);
        checkId("--link", link);
        checkId("--from", from);
        checkId("--to", to);
        unifiedMemoryWith.forEach(u -> checkId("--unified-memory-with", u));
        if (deviceName != null && deviceName.isBlank()) {
            throw new BadInputException("--device-name must not be blank: --device-name=\"" + deviceName + "\"");
        }
        if (gpuIndex < 0) {
            throw new BadInputException("--gpu-index must be >= 0: --gpu-index=" + gpuIndex);
        }
        if (tool.makesMachine()) {
            return machine(tool, report);
        }
        if (into == null) {
            throw new BadInputException("--into must name the profile to add " + tool + " figures to (a file, latest "
                    + "or latest:<host>): --into=<missing>");
        }
        LinkKind kind = linkKind == null ? null : Labelled.parse(LinkKind.class, "--link-kind", linkKind);

        ProfileStore store = profilesDir.store();
        CommandSupport.Named input = CommandSupport.read(store, into);
        ImportedFigures figures = tool.parse(file, gpuIndex);
        if (figures.cutOff() && !partial) {
            throw new BadInputException(figures.tool() + " output must be whole to import: it ends inside its table "
                    + "after size " + figures.largestMessageBytes() + " bytes" + (figures.settings().containsKey("maxBytes")
                    ? " of maxBytes " + figures.settings().get("maxBytes") : "") + ", so its bandwidth would be that of "
                    + "small messages; give --partial to import it flagged: file=" + file);
        }
        ProfileImport.Result result = ProfileImport.apply(input.profile(), figures, tool,
                new ProfileImport.Target(device, deviceName, unifiedMemoryWith, link, kind, from, to),
                new ProfileImport.RunContext(file.toString(), input.path().getFileName().toString(),
                        CommandSupport.commandLine(spec), CommandSupport.version(), Instant.now()));
        Path written = output != null ? ProfileStore.saveAs(result.profile(), output) : store.save(result.profile());

        PrintWriter out = spec.commandLine().getOut();
        if (report == OutputFormat.JSON) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("written", written.toString());
            json.put("input", input.path().toString());
            json.put("tool", figures.tool());
            json.put("toolVersion", figures.toolVersion());
            json.put("file", file.toString());
            json.put("added", result.added());
            json.put("flags", result.flags());
            json.put("skipped", result.skipped());
            json.put("inferred", result.inferred());
            json.put("ceilings", result.ceilings());
            out.print(ProfileJson.toJson(json));
        } else {
            out.println("wrote " + written);
            out.println("from  " + input.path() + " (unchanged) and " + figures.tool()
                    + (figures.toolVersion() != null ? " " + figures.toolVersion() : "") + " output " + file);
            for (String a : result.added()) {
                out.println("added " + a);
            }
            for (String i : result.inferred()) {
                out.println("inferred " + i);
            }
            // One line per distinct finding; the profile keeps one flag per figure.
            Map<String, Integer> flags = new LinkedHashMap<>();
            for (Quality.Flag f : result.flags()) {
                flags.merge(f.code() + ": " + f.message(), 1, Integer::sum);
            }
            flags.forEach((text, count) -> out.println("flag  " + text + (count > 1 ? " (" + count + " figures)" : "")));
            for (String s : result.skipped()) {
                out.println("skipped " + s);
            }
            for (String c : result.ceilings()) {
                out.println("ceiling " + c);
            }
            out.println("next: " + Launcher.command("show " + written));
            if (!result.ceilings().isEmpty()) {
                out.println("      " + Launcher.command("predict --profile " + written + " --model llama-3.1-8b"));
            }
        }
        out.flush();
        return 0;
    }

    /**
     * Another estimator's hardware file: a profile of its own, written to {@code --output} only; the flags that place
     * figures into a profile or onto a link do not apply.
     */
    private Integer machine(ImportFormat tool, OutputFormat report) {
        Map<String, Object> notForIt = new LinkedHashMap<>();
        notForIt.put("--into", into);
        notForIt.put("--link", link);
        notForIt.put("--link-kind", linkKind);
        notForIt.put("--from", from);
        notForIt.put("--to", to);
        notForIt.put("--unified-memory-with", unifiedMemoryWith.isEmpty() ? null : String.join(",", unifiedMemoryWith));
        notForIt.put("--gpu-index", gpuIndex == 0 ? null : gpuIndex);
        notForIt.put("--partial", partial ? true : null);
        for (Map.Entry<String, Object> flag : notForIt.entrySet()) {
            if (flag.getValue() != null) {
                throw new BadInputException(flag.getKey() + " must not be given with --format " + tool + ": "
                        + tool.what() + " is a machine of its own, written by itself to --output (" + flag.getKey()
                        + "=" + flag.getValue() + ")");
            }
        }
        if (output == null) {
            throw new BadInputException("--output must be given with --format " + tool + ": " + tool.what() + " is a "
                    + "machine of its own, not a calibration of this host, so it never goes into the profiles "
                    + "directory where it would become latest: --output=<missing>");
        }
        if (java.nio.file.Files.exists(output, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            throw new BadInputException("--output must not exist (profiles are never overwritten): --output=" + output);
        }
        byte[] bytes = membound.vocabulary.files.InputFiles.readBytes(file, tool.what(),
                membound.vocabulary.files.InputFiles.Kind.TOOL_OUTPUT);
        HardwareFileImport.Result result = HardwareFileImport.read(tool, bytes,
                new HardwareFileImport.Target(device, deviceName),
                new HardwareFileImport.RunContext(file.toString(), CommandSupport.commandLine(spec),
                        CommandSupport.version(), Instant.now()));
        Path written = ProfileStore.saveAs(result.profile(), output);
        PrintWriter out = spec.commandLine().getOut();
        if (report == OutputFormat.JSON) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("written", written.toString());
            json.put("tool", tool.toolName());
            json.put("file", file.toString());
            json.put("read", result.read());
            json.put("inferred", result.inferred());
            json.put("skipped", result.skipped());
            json.put("flags", result.profile().quality().flags());
            out.print(ProfileJson.toJson(json));
        } else {
            out.println("wrote " + written);
            out.println("from  " + tool.what() + " " + file + ": a machine of its own (predict --profile " + written
                    + ", or beside others with --compare profile:" + written + ")");
            for (String r : result.read()) {
                out.println("read  " + r);
            }
            for (String i : result.inferred()) {
                out.println("inferred " + i);
            }
            for (String s : result.skipped()) {
                out.println("skipped " + s);
            }
            for (Quality.Flag f : result.profile().quality().flags()) {
                out.println("flag  " + f.code() + ": " + f.message());
            }
        }
        out.flush();
        return 0;
    }

    private static void checkId(String option, String value) {
        if (value != null && !ID.matcher(value).matches()) {
            throw new BadInputException(option + " must be lower-case letters, digits and . _ : - : " + option + "="
                    + value);
        }
    }
}
