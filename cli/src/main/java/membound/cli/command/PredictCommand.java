package membound.cli.command;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.databind.SerializationFeature;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine;

import membound.cli.options.OutputFormat;
import membound.cli.options.PredictOptions;
import membound.cli.text.MachineResult;
import membound.cli.text.PredictionReport;
import membound.model.Estimator;
import membound.model.Prediction;
import membound.model.decode.DecodeEstimator;
import membound.model.decode.DecodePrediction;
import membound.model.decode.DecodeSetup;
import membound.model.machine.Machine;
import membound.model.machine.Machines;
import membound.model.machine.Overrides;
import membound.model.training.TrainingSetup;
import membound.model.workload.Transformer;
import membound.model.workload.Workload;
import membound.profile.ProfileDirectory;
import membound.vocabulary.BadInputException;
import membound.vocabulary.text.Launcher;

/**
 * {@code membound predict}: training (or, with {@code --decode}, inference) time of a workload on a
 * measured profile or a datasheet entry, with the datasheet answer beside the measured one.
 */
@Command(name = "predict",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
                "Predicts training time (or decode tokens/s) from measured ceilings with a per-operation roofline: "
                        + "step time by operation class and its memory-bound share, tokens/s, total time, MFU, the "
                        + "memory footprint, the same prediction on datasheet figures, and the bandwidth sensitivity.",
                "Formulas and sources: docs/model.md."},
        footer = {"", "Examples:",
                "  ${sys:membound.command:-scripts/membound} predict --model llama-3.1-8b --hardware dgx-spark \\",
                "      --finetune lora --tokens 2B",
                "  ${sys:membound.command:-scripts/membound} predict --model llama-3.1-8b --hardware h100 \\",
                "      --micro-batch 2 --grad-accum 8",
                "  ${sys:membound.command:-scripts/membound} predict --model llama-3.2-3b --profile latest \\",
                "      --format json",
                "  ${sys:membound.command:-scripts/membound} predict --model llama-3.1-8b --decode --weights Q8_0 \\",
                "      --compare dgx-spark,gh200,h100"})
public final class PredictCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    PredictOptions options;

    /** The file --profile names, once resolved. */
    private Path profileFile;

    @Override
    public Integer call() {
        OutputFormat format = options.format();
        options.checkConsistent();
        Workload workload = options.workload();
        options.checkAgainst(workload);
        options.warnings().forEach(spec.commandLine().getErr()::println);
        Overrides overrides = options.overrides();
        List<String> machineNames = new ArrayList<>();
        if (options.profile().given()) {
            profileFile = ProfileDirectory.repositoryDefault().resolve(options.profile().reference());
            machineNames.add("profile:" + profileFile);
        }
        if (options.hardware() != null) {
            machineNames.add(options.hardware());
        }
        for (String name : options.compare()) {
            if (name.startsWith("profile:")) {
                // A profile that cannot be read is bad input, not a row the model could not predict on.
                Path file = ProfileDirectory.repositoryDefault().resolve(name.substring("profile:".length()));
                membound.profile.ProfileJson.read(file);
                machineNames.add("profile:" + file);
            } else {
                machineNames.add(name);
            }
        }
        if (machineNames.isEmpty()) {
            throw new BadInputException("hardware must be given: --hardware NAME (" + String.join(", ", Machines.catalogIds())
                    + "), --profile PATH or --compare A,B");
        }
        PrintWriter out = spec.commandLine().getOut();
        if (options.decode()) {
            if (!(workload instanceof Transformer tf)) {
                throw new BadInputException("decode needs a transformer: --model PRESET|config.json, not --mlp");
            }
            DecodeSetup setup = options.decodeSetup();
            EngineTerms engine = options.engine() == null ? null : EngineTerms.of(options.engine());
            List<MachineResult<DecodePrediction>> results = new ArrayList<>();
            for (String name : machineNames) {
                results.add(attempt(name, overrides, machineNames.size() > 1, m -> engine == null
                        ? DecodeEstimator.predict(tf, setup, m) : engine.predict(tf, setup, m)));
            }
            if (format == OutputFormat.JSON) {
                out.println(json(results.size() == 1 ? results.get(0).value() : resultsJson(results)));
            } else if (results.size() == 1) {
                PredictionReport.decode(out, results.get(0).value());
            } else {
                PredictionReport.compareDecode(out, tf, setup, results);
            }
            return 0;
        }
        TrainingSetup setup = options.trainingSetup();
        membound.model.trainer.Trainer trainer = options.trainer();
        trainer.check(setup.parallelism(), setup.moeDispatcher());
        List<MachineResult<Prediction>> results = new ArrayList<>();
        for (String name : machineNames) {
            results.add(attempt(name, overrides, machineNames.size() > 1,
                    m -> Estimator.predict(workload, setup, m, trainer, options.trainerNamed())));
        }
        if (format == OutputFormat.JSON) {
            out.println(json(results.size() == 1 ? results.get(0).value() : resultsJson(results)));
        } else if (results.size() == 1) {
            PredictionReport.training(out, results.get(0).value(), options.operationsShown());
        } else {
            PredictionReport.compareTraining(out, workload, setup, results);
        }
        if (format == OutputFormat.TEXT) {
            out.println("\ncharts and a page of this: " + reportCommand(workload));
        }
        return 0;
    }

    /**
     * The report command for this very prediction, to paste as it is: predict's own arguments (less --format) and a
     * new directory named after the workload.
     */
    private String reportCommand(Workload workload) {
        CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
        List<String> all = parsed.originalArgs();
        int at = all.indexOf(parsed.commandSpec().name());
        List<String> args = ReportCommand.without(new ArrayList<>(at < 0 ? all : all.subList(at + 1, all.size())),
                "--format");
        StringBuilder text = new StringBuilder(Launcher.command("report"));
        for (String a : args) {
            text.append(' ').append(quoted(a));
        }
        return text.append(" --out ").append(quoted("report-" + workload.name().replaceAll("[^A-Za-z0-9._-]+", "-")))
                .toString();
    }

    /** An argument as a POSIX shell reads it back. */
    static String quoted(String a) {
        return a.matches("[A-Za-z0-9_./:=,+@%-]+") ? a : "'" + a.replace("'", "'\\''") + "'";
    }

    private Machine machine(String name, Overrides overrides) {
        Machine machine;
        if (profileFile != null && name.equals("profile:" + profileFile)) {
            machine = Machines.profile(profileFile, options.device(), overrides);
        } else if (name.startsWith("profile:")) {
            // A --compare profile:FILE (resolved above): its own training device (--device is the --profile's).
            machine = Machines.profile(Path.of(name.substring("profile:".length())), null, overrides);
        } else {
            machine = Machines.datasheet(name, overrides);
        }
        return machine.withCpuStreams(options.cpuStreams());
    }

    private <T> MachineResult<T> attempt(String name, Overrides overrides, boolean comparing,
                                  java.util.function.Function<Machine, T> predict) {
        try {
            Machine m = machine(name, overrides);
            return new MachineResult<>(m.id(), predict.apply(m), null);
        } catch (BadInputException e) {
            if (!comparing) {
                throw e;
            }
            return new MachineResult<>(name.startsWith("profile:") ? name : name, null, e.getMessage());
        }
    }

    private static List<Map<String, Object>> resultsJson(List<? extends MachineResult<?>> results) {
        List<Map<String, Object>> list = new ArrayList<>();
        for (MachineResult<?> r : results) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("machine", r.machine());
            if (r.value() != null) {
                entry.put("prediction", r.value());
            } else {
                entry.put("error", r.error());
            }
            list.add(entry);
        }
        return list;
    }

    static String json(Object value) {
        // A figure nobody has (NaN: a datasheet column of a machine with no datasheet) is null, as JSON has no NaN.
        SimpleModule unknown = new SimpleModule().addSerializer(Double.TYPE, new NumberOrNull())
                .addSerializer(Double.class, new NumberOrNull());
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).registerModule(unknown);
        try {
            return mapper.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("prediction did not serialize", e);
        }
    }

    /** Writes a double as a JSON number, or null where it is NaN. */
    private static final class NumberOrNull extends StdSerializer<Double> {

        NumberOrNull() {
            super(Double.class);
        }

        @Override
        public void serialize(Double value, JsonGenerator out, SerializerProvider provider) throws IOException {
            if (value.isNaN()) {
                out.writeNull();
            } else {
                out.writeNumber(value);
            }
        }
    }
}
