package membound.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

import membound.model.Estimator;
import membound.model.machine.Machine;
import membound.model.machine.Machines;
import membound.model.machine.Overrides;
import membound.model.training.TrainingSetup;
import membound.model.workload.Presets;
import membound.model.workload.Workload;
import membound.profile.ProfileJson;
import membound.vocabulary.AccessPattern;

/**
 * Report inputs for tests, made from the model as {@code membound report} makes them from predict's JSON:
 * the example profile and a small workload. The command itself (its options, predict run in-process) is
 * tested in the cli module; here the library draws what the model predicts.
 */
public final class Reports {

    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private static ReportRenderer.Rendered example;
    private static ReportInput exampleInput;

    private Reports() {
    }

    public static Path root() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("results/profiles/examples")) && Files.isRegularFile(dir.resolve("pom.xml"))) {
                return dir;
            }
        }
        throw new IllegalStateException("tests must run inside the repository");
    }

    public static Path exampleProfile() {
        return root().resolve("results/profiles/examples/dgx-spark-example.json");
    }

    /** A report of the profile alone, as {@code membound report --profile FILE} makes one without a workload. */
    public static ReportInput profileOnly(Path profile) {
        return new ReportInput(ProfileJson.read(profile), profile.toString(), null, List.of(), null,
                "no workload given: add --model PRESET", "membound report --profile " + profile, 12);
    }

    /**
     * A training prediction of {@code preset} with predict's defaults on the profile's machine, then on each
     * catalog entry of {@code compare}, with the bandwidth sweep on the profile's machine.
     */
    public static ReportInput withWorkload(Path profile, String preset, String... compare) {
        Workload workload = Presets.resolve(preset);
        TrainingSetup setup = TrainingSetup.builder().build();
        Machine machine = Machines.profile(profile, null, Overrides.NONE);
        List<MachineOutcome> machines = new ArrayList<>();
        machines.add(MachineOutcome.of(run(workload, setup, machine)));
        for (String entry : compare) {
            machines.add(MachineOutcome.of(run(workload, setup, Machines.datasheet(entry, Overrides.NONE))));
        }
        TrainingRun primary = machines.get(0).run();
        SensitivityCurve sweep = SensitivityCurve.sweep(machine.device().mainMemory().ceiling(AccessPattern.READ),
                primary, bandwidth -> Estimator.predict(workload, setup, Machines.profile(profile, null,
                        Overrides.parse(List.of(String.format(Locale.ROOT, "%.0fB/s", bandwidth)), List.of())))
                        .measured().stepSeconds());
        return new ReportInput(ProfileJson.read(profile), profile.toString(), machine.device().id(), machines, sweep,
                null, "membound report --profile " + profile + " --model " + preset + " --compare "
                + String.join(",", compare), 12);
    }

    /** The prediction as predict's JSON carries it to the report. */
    private static TrainingRun run(Workload workload, TrainingSetup setup, Machine machine) {
        return JSON.convertValue(Estimator.predict(workload, setup, machine), TrainingRun.class);
    }

    /**
     * The example profile with Llama-3.2 1B compared with two catalog entries: made once per test run (a
     * report takes seconds, and the machine is shared).
     */
    public static synchronized ReportRenderer.Rendered example() {
        if (example == null) {
            example = ReportRenderer.render(exampleInput());
        }
        return example;
    }

    public static synchronized ReportInput exampleInput() {
        if (exampleInput == null) {
            exampleInput = withWorkload(exampleProfile(), "llama-3.2-1b", "gh200", "h100");
        }
        return exampleInput;
    }
}
