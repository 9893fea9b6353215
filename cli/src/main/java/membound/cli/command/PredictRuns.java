package membound.cli.command;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import picocli.CommandLine;

import membound.report.MachineOutcome;
import membound.report.TrainingRun;
import membound.vocabulary.BadInputException;
import membound.vocabulary.text.Launcher;

/**
 * Runs {@code membound predict --format json} in-process with the user's own workload options and reads
 * what it prints: the report parses, checks and predicts exactly as predict does, and shows what predict
 * would have printed.
 */
final class PredictRuns {

    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private PredictRuns() {
    }

    /** Every machine's outcome, the profile's first; bad options or a failed profile prediction throw one line. */
    static List<MachineOutcome> outcomes(List<String> predictArgs) {
        JsonNode json = run(predictArgs);
        List<MachineOutcome> outcomes = new ArrayList<>();
        if (json.isArray()) {
            for (JsonNode entry : json) {
                if (entry.has("prediction")) {
                    outcomes.add(MachineOutcome.of(read(entry.get("prediction"))));
                } else {
                    outcomes.add(MachineOutcome.failed(entry.path("machine").asText("?"), entry.path("error").asText("?")));
                }
            }
        } else {
            outcomes.add(MachineOutcome.of(read(json)));
        }
        if (outcomes.get(0).run() == null) {
            throw new BadInputException("profile prediction must succeed for a report: " + outcomes.get(0).error());
        }
        return outcomes;
    }

    /** The measured step time of the first machine predict names (the profile's). */
    static double stepSeconds(List<String> predictArgs) {
        JsonNode json = run(predictArgs);
        JsonNode first = json.isArray() ? json.get(0).get("prediction") : json;
        return first.path("measured").path("stepSeconds").asDouble();
    }

    private static JsonNode run(List<String> predictArgs) {
        List<String> args = new ArrayList<>(predictArgs);
        args.add("--format");
        args.add("json");
        StringWriter out = new StringWriter();
        CommandLine commandLine = new CommandLine(new PredictCommand());
        // The report adds --format json after the user's options; a --format of the user's is not an error here.
        commandLine.setOverwrittenOptionsAllowed(true);
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(new StringWriter(), true));
        try {
            commandLine.parseArgs(args.toArray(String[]::new));
        } catch (CommandLine.ParameterException e) {
            String message = e.getMessage() == null ? "bad option" : e.getMessage().strip();
            throw new BadInputException(message + " (see '" + Launcher.command("report --help") + "')");
        }
        PredictCommand predict = commandLine.getCommand();
        predict.call();
        try {
            return JSON.readTree(out.toString());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("membound predict --format json printed something that is not JSON", e);
        }
    }

    private static TrainingRun read(JsonNode prediction) {
        try {
            return JSON.treeToValue(prediction, TrainingRun.class);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new IllegalStateException("membound predict's JSON no longer has what the report reads: " + e.getMessage(), e);
        }
    }
}
