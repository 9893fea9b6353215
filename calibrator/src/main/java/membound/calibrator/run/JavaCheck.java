package membound.calibrator.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import membound.vocabulary.BadInputException;
import membound.vocabulary.files.InputFiles;
import membound.vocabulary.files.Leftovers;
import membound.vocabulary.files.PathNames;

/**
 * Checks {@code calibrate --jvm} before anything forks: an executable file that runs as a java and reports a
 * version the benchmarks run on (the Vector API incubator module of Java {@value #MIN_FEATURE} and later). JMH
 * would otherwise fail in its first fork with its own exception.
 */
public final class JavaCheck {

    /** The oldest Java the benchmarks run on. */
    public static final int MIN_FEATURE = 17;

    private static final Pattern SPECIFICATION = Pattern.compile("java\\.specification\\.version = (\\d+)");
    private static final long TIMEOUT_SECONDS = 60;

    private JavaCheck() {
    }

    /** The feature version of the java at {@code jvm}; a one-line error for anything that is not one we run on. */
    public static int check(String jvm) {
        Path path = PathNames.of("--jvm", jvm);
        if (!Files.isRegularFile(path) || !Files.isExecutable(path)) {
            throw new BadInputException("--jvm must be an executable java (such as $JAVA_HOME/bin/java): --jvm=" + jvm
                    + (Files.exists(path) ? " (not an executable file)" : " (no such file)"));
        }
        String output = run(path, jvm);
        Matcher m = SPECIFICATION.matcher(output);
        if (!m.find()) {
            throw new BadInputException("--jvm must be a java (it did not report java.specification.version with "
                    + "-XshowSettings:properties -version): --jvm=" + jvm);
        }
        int feature = Integer.parseInt(m.group(1));
        if (feature < MIN_FEATURE) {
            throw new BadInputException("--jvm must be Java " + MIN_FEATURE + " or newer (the benchmarks use the "
                    + "Vector API): --jvm=" + jvm + ", version=" + feature);
        }
        return feature;
    }

    /** What the java printed; its output goes to a temporary file, so a java that hangs silently still times out. */
    private static String run(Path path, String jvm) {
        Path output = null;
        Process process = null;
        try {
            output = Files.createTempFile("membound-jvm-check-", ".txt");
            process = new ProcessBuilder(path.toString(), "-XshowSettings:properties", "-version")
                    .redirectErrorStream(true).redirectOutput(output.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                throw new BadInputException("--jvm must answer -version within " + TIMEOUT_SECONDS + " s: --jvm=" + jvm);
            }
            return InputFiles.readText(output, "--jvm's -version output", InputFiles.Kind.TOOL_OUTPUT);
        } catch (IOException e) {
            throw new BadInputException("--jvm must be a java this user can run: --jvm=" + jvm + ", problem="
                    + Leftovers.problem(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BadInputException("--jvm check was interrupted: --jvm=" + jvm);
        } finally {
            if (process != null) {
                process.destroyForcibly();
            }
            if (output != null) {
                output.toFile().delete();
            }
        }
    }
}
