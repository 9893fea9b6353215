package membound.cli.command;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import membound.cli.options.FormatOption;
import membound.cli.options.OutputFormat;
import membound.cli.options.ProfilesDirOption;
import membound.export.Export;
import membound.export.ExportInput;
import membound.export.ExportTool;
import membound.export.ExportedFigure;
import membound.export.Exporter;
import membound.profile.ProfileJson;
import membound.vocabulary.BadInputException;

/**
 * {@code membound export --to TOOL (--profile FILE|latest | --hardware NAME)}: the machine as another estimator's
 * own hardware files, in that tool's units, every figure with its provenance (docs/export.md). Notes about figures
 * that are not the profile's own (a datasheet figure standing in, a neutral value) go to stderr.
 */
@Command(name = "export", mixinStandardHelpOptions = true,
        description = {"Writes a profile or a catalog entry as another estimator's hardware files: llm-analysis (a "
                + "GPU file), calculon (a system file with efficiency tables from the profile's sweeps), genz (a "
                + "system dictionary) or astra-sim (a directory: network.yml, system.json, memory.json).",
                "From a profile every figure is the measured one; where the profile has none the datasheet's is "
                        + "written and said on stderr (--measured-only refuses instead). The provenance of every "
                        + "figure is in the file where the tool ignores extra keys, else in a sidecar "
                        + "*.membound.json. Prints the tool's own command line for the files."})
public final class ExportCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--to", required = true, paramLabel = "TOOL",
            description = "llm-analysis, calculon, genz or astra-sim")
    String to;

    @Option(names = "--profile", paramLabel = "PROFILE", description = "a measured profile: a file, latest or "
            + "latest:<host>")
    String profile;

    @Option(names = "--hardware", paramLabel = "NAME", description = "a catalog entry (membound hardware --list): "
            + "its datasheet figures")
    String hardware;

    @Option(names = "--device", paramLabel = "ID", description = "the profile's device to export (default: its GPU "
            + "if it measured one, else its CPU)")
    String device;

    @Option(names = "--out", paramLabel = "FILE|DIR", description = "where to write (must not exist): a file, or a "
            + "directory for astra-sim (default: <source>.<tool>.json or <source>.astra-sim here)")
    Path out;

    @Option(names = "--measured-only", description = "refuse a figure the profile did not measure instead of "
            + "writing the datasheet's")
    boolean measuredOnly;

    @Mixin
    FormatOption format;

    @Mixin
    ProfilesDirOption profilesDir;

    @Override
    public Integer call() {
        OutputFormat report = format.value();
        ExportTool tool = ExportTool.of(to);
        if ((profile == null) == (hardware == null)) {
            throw new BadInputException("export needs one of --profile or --hardware: --profile=" + profile
                    + ", --hardware=" + hardware);
        }
        if (hardware != null && device != null) {
            throw new BadInputException("--device names a device of a profile; a catalog entry exports its "
                    + "accelerator: --device=" + device + ", --hardware=" + hardware);
        }
        ExportInput input;
        if (profile != null) {
            Path path = profilesDir.store().resolve(profile);
            input = ExportInput.profile(path, device, measuredOnly);
        } else {
            if (measuredOnly) {
                throw new BadInputException("--measured-only needs --profile: a catalog entry holds datasheet figures "
                        + "only: --hardware=" + hardware);
            }
            input = ExportInput.catalog(hardware);
        }
        Path target = out != null ? out : Path.of(Exporter.defaultName(tool, input));
        if (target.getFileName() == null) {
            throw new BadInputException("--out must name a file or directory: --out=" + out);
        }
        Export export = Exporter.build(tool, input, target.getFileName().toString());
        List<Path> written = Exporter.publish(export, target);

        PrintWriter err = spec.commandLine().getErr();
        for (String note : export.notes()) {
            err.println("note: " + note);
        }
        err.flush();
        PrintWriter stdout = spec.commandLine().getOut();
        if (report == OutputFormat.JSON) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("tool", tool.label());
            json.put("toolCommit", tool.commit());
            json.put("from", input.origin());
            json.put("written", written.stream().map(Path::toString).toList());
            List<Map<String, Object>> figures = new ArrayList<>();
            for (ExportedFigure f : export.figures()) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("file", f.file());
                row.put("key", f.key());
                row.put("value", f.value());
                row.put("unit", f.unit());
                row.put("siValue", f.siValue());
                row.put("siUnit", f.siUnit());
                row.put("origin", f.origin().label());
                row.put("source", f.source());
                figures.add(row);
            }
            json.put("figures", figures);
            json.put("notes", export.notes());
            json.put("command", export.command());
            stdout.print(ProfileJson.toJson(json));
        } else {
            for (Path p : written) {
                stdout.println("wrote " + p);
            }
            stdout.println("for   " + tool.label() + " at " + tool.repository() + "@" + tool.commit().substring(0, 12));
            stdout.println("from  " + input.origin() + " (" + input.machine().name() + ")");
            for (ExportedFigure f : export.figures()) {
                stdout.println(String.format(java.util.Locale.ROOT, "  %-44s %12s %-8s %-9s %s", f.key(),
                        membound.export.Exporter.plain(f.value()), f.unit(), f.origin().label(), f.source()));
            }
            // The tool's command names the file as written: run it where the file is, so that it pastes as it is.
            Path where = target.toAbsolutePath().getParent();
            boolean here = where == null || where.equals(Path.of("").toAbsolutePath());
            stdout.println("run   " + (here ? "" : "cd " + PredictCommand.quoted(where.toString()) + " && ")
                    + export.command());
        }
        stdout.flush();
        return 0;
    }
}
