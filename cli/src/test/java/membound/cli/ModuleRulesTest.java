package membound.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileInputStream;
import java.io.FileReader;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;

/**
 * The import rules, over the compiled main classes of every module (cli's class path holds them all; on a JDK 22+
 * build that includes the GPU suite's {@code src/main/java22}): the one-way module graph as package dependencies,
 * picocli in cli alone, Jackson only in the modules that read or write JSON, and every file a user names read through
 * {@code InputFiles}. Checked on the byte code, so a fully-qualified name or a static import counts as much as an
 * import line.
 */
class ModuleRulesTest {

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("membound");

    /** Each module's packages, by the module's directory. */
    private static final Map<String, String[]> PACKAGES = new LinkedHashMap<>();
    /** What each module's code may use: the modules under it in the poms, transitively, as the code needs them. */
    private static final Map<String, Set<String>> MAY_USE = new LinkedHashMap<>();

    static {
        module("vocabulary", Set.of(), "membound.vocabulary..");
        module("hardware", Set.of("vocabulary"), "membound.hardware..");
        module("kernels", Set.of("vocabulary", "hardware"), "membound.benchmarks.stream..",
                "membound.benchmarks.latency..", "membound.benchmarks.compute..", "membound.benchmarks.team..",
                "membound.benchmarks.placement..", "membound.benchmarks.sizing..", "membound.benchmarks.jvm..");
        module("workloads", Set.of("vocabulary", "hardware", "kernels"), "membound.benchmarks.training..",
                "membound.benchmarks.tenant..");
        module("suite", Set.of("vocabulary", "hardware", "kernels", "workloads"), "membound.benchmarks.suite..",
                "membound.benchmarks.results..");
        module("gpu-suite", Set.of("vocabulary", "hardware", "kernels", "suite"), "membound.benchmarks.gpu..");
        module("benchmarks", Set.of("vocabulary", "hardware", "kernels", "workloads", "suite", "gpu-suite"),
                "membound.benchmarks");
        module("profile", Set.of("vocabulary", "hardware"), "membound.profile..");
        module("calibrator", Set.of("vocabulary", "hardware", "kernels", "workloads", "suite", "gpu-suite", "profile"),
                "membound.calibrator..");
        module("model", Set.of("vocabulary", "hardware", "profile"), "membound.model..");
        module("report", Set.of("vocabulary", "hardware", "profile", "model"), "membound.report..");
        // validate runs the training workloads through the suite runner, never a kernel by itself.
        module("validate", Set.of("vocabulary", "hardware", "profile", "model", "workloads", "suite"),
                "membound.validate..");
    }

    private static void module(String name, Set<String> mayUse, String... packages) {
        PACKAGES.put(name, packages);
        MAY_USE.put(name, mayUse);
    }

    @Test
    void shouldSeeEveryModulesClasses() {
        for (Map.Entry<String, String[]> module : PACKAGES.entrySet()) {
            assertTrue(MAIN.stream().anyMatch(c -> c.getPackage().getName().startsWith(
                    module.getValue()[0].replace("..", ""))), "classes of " + module.getKey() + " imported");
        }
        assertTrue(MAIN.contain("membound.cli.Membound"));
    }

    @Test
    void shouldKeepTheModuleGraphOneWay() {
        for (String module : PACKAGES.keySet()) {
            List<String> forbidden = new ArrayList<>();
            PACKAGES.forEach((other, packages) -> {
                if (!other.equals(module) && !MAY_USE.get(module).contains(other)) {
                    forbidden.addAll(List.of(packages));
                }
            });
            forbidden.add("membound.cli..");
            noClasses().that().resideInAnyPackage(PACKAGES.get(module))
                    .should().dependOnClassesThat().resideInAnyPackage(forbidden.toArray(String[]::new))
                    .because(module + " may use only " + MAY_USE.get(module) + " (docs/architecture.md)")
                    .check(MAIN);
        }
    }

    @Test
    void shouldUsePicocliInTheCliModuleAlone() {
        noClasses().that().resideOutsideOfPackage("membound.cli..")
                .should().dependOnClassesThat().resideInAPackage("picocli..")
                .because("commands, their options and output live in cli; give the command a library API")
                .check(MAIN);
    }

    @Test
    void shouldUseJacksonOnlyInTheModulesThatReadOrWriteJson() {
        noClasses().that().resideOutsideOfPackages("membound.profile..", "membound.calibrator..", "membound.model..",
                        "membound.report..", "membound.validate..", "membound.export..", "membound.trace..", "membound.cli..")
                .should().dependOnClassesThat().resideInAPackage("com.fasterxml.jackson..")
                .because("JSON is read strictly through ProfileJson's mapper, in the modules that have files of it")
                .check(MAIN);
    }

    /**
     * What may open files itself: the one reader, the atomic writer, the lock, and the readers of the system's own
     * files ({@code /proc}, {@code /sys}), which no user names.
     */
    private static final Set<String> OWN_READERS = Set.of("membound.vocabulary.files.InputFiles",
            "membound.vocabulary.files.AtomicFiles", "membound.calibrator.run.CalibrationLock",
            "membound.hardware.host.SystemFiles", "membound.hardware.host.LoadMonitor",
            "membound.hardware.host.JavaFacts", "membound.benchmarks.placement.CpuBinding");
    private static final Set<String> FILES_READS = Set.of("readAllBytes", "readString", "readAllLines",
            "newBufferedReader", "newInputStream", "lines");

    @Test
    void shouldReadEveryFileAUserNamesThroughInputFiles() {
        DescribedPredicate<JavaClass> ownReader = DescribedPredicate.describe("one of the own readers",
                c -> OWN_READERS.contains(c.getName().replaceFirst("\\$.*", "")));
        noClasses().that(DescribedPredicate.not(ownReader)).should(openFilesToRead())
                .because("read a file through membound.vocabulary.files.InputFiles (regular files only, size-limited, "
                        + "one-line errors)")
                .check(MAIN);
    }

    private static ArchCondition<JavaClass> openFilesToRead() {
        return new ArchCondition<>("open a file to read it") {
            @Override
            public void check(JavaClass javaClass, ConditionEvents events) {
                for (JavaAccess<?> access : javaClass.getAccessesFromSelf()) {
                    String owner = access.getTargetOwner().getName();
                    String name = access.getName();
                    boolean reads = owner.equals(Files.class.getName()) && FILES_READS.contains(name)
                            || (owner.equals(FileInputStream.class.getName())
                                    || owner.equals(FileReader.class.getName())) && name.equals("<init>")
                            || owner.equals(FileChannel.class.getName()) && name.equals("open");
                    if (reads) {
                        // "opens a file" holds here; noClasses() turns each such event into a violation.
                        events.add(SimpleConditionEvent.satisfied(access, access.getDescription()));
                    }
                }
            }
        };
    }
}
