package membound.jmhplugin;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;
import org.apache.maven.project.MavenProject;

/**
 * {@code mvn -pl benchmarks jmh:run}: runs the benchmarks module's main class in a fresh JVM on the
 * module's runtime classpath, forwarding every {@code jmh.*} and {@code membound.*} property given
 * on the command line. What the properties mean is the main class's business, not this plugin's.
 *
 * <p>The child's exit status becomes the build's: 2 (bad input) fails the build with the child's
 * own one-line message already printed.
 */
@Mojo(name = "run", requiresDependencyResolution = ResolutionScope.RUNTIME, threadSafe = true)
public final class RunMojo extends AbstractMojo {

    /** The JDK prints this for every JVM that resolves an incubator module; it tells the user nothing. */
    static final String INCUBATOR_WARNING = "WARNING: Using incubator modules";

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    private MavenProject project;

    @Parameter(defaultValue = "${session}", readonly = true, required = true)
    private MavenSession session;

    @Parameter(property = "jmh.mainClass", defaultValue = "membound.benchmarks.BenchmarkMain")
    private String mainClass;

    /** The java launcher; defaults to the one of the JDK running Maven. */
    @Parameter(property = "jmh.jvm")
    private String jvm;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        List<String> command = new ArrayList<>();
        command.add(jvm != null ? jvm : javaLauncher());
        command.addAll(forwardedProperties());
        command.add("-Dmembound.repositoryRoot=" + repositoryRoot());
        command.add("-cp");
        command.add(runtimeClasspath());
        command.add(mainClass);

        getLog().debug("jmh:run " + command);
        int status = run(command);
        if (status == 2) {
            throw new MojoFailureException("jmh:run: bad input (see the message above), exit status 2");
        }
        if (status != 0) {
            throw new MojoExecutionException("jmh:run: " + mainClass + " exited with status " + status);
        }
    }

    private List<String> forwardedProperties() {
        Map<String, String> forwarded = new TreeMap<>();
        session.getUserProperties().forEach((key, value) -> {
            String name = key.toString();
            if ((name.startsWith("jmh.") || name.startsWith("membound.")) && !name.equals("jmh.jvm")
                    && !name.equals("jmh.mainClass")) {
                forwarded.put(name, value.toString());
            }
        });
        List<String> args = new ArrayList<>();
        forwarded.forEach((name, value) -> args.add("-D" + name + "=" + value));
        return args;
    }

    private String runtimeClasspath() throws MojoExecutionException {
        try {
            return String.join(File.pathSeparator, project.getRuntimeClasspathElements());
        } catch (Exception e) {
            throw new MojoExecutionException("jmh:run: cannot resolve the runtime classpath of "
                    + project.getArtifactId() + ": " + e.getMessage(), e);
        }
    }

    private String repositoryRoot() {
        File root = session.getRequest().getMultiModuleProjectDirectory();
        return (root != null ? root : project.getBasedir().getParentFile()).getAbsolutePath();
    }

    private static String javaLauncher() {
        return System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
    }

    private int run(List<String> command) throws MojoExecutionException {
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(project.getBasedir())
                .redirectInput(ProcessBuilder.Redirect.INHERIT)
                .redirectOutput(ProcessBuilder.Redirect.INHERIT);
        try {
            Process child = builder.start();
            Thread err = pump(new BufferedReader(new InputStreamReader(child.getErrorStream(), StandardCharsets.UTF_8)),
                    System.err);
            int status = child.waitFor();
            err.join();
            return status;
        } catch (IOException e) {
            throw new MojoExecutionException("jmh:run: cannot start " + command.get(0) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MojoExecutionException("jmh:run: interrupted", e);
        }
    }

    private static Thread pump(BufferedReader reader, PrintStream sink) {
        Thread thread = new Thread(() -> {
            try (reader) {
                for (String line; (line = reader.readLine()) != null; ) {
                    if (!line.startsWith(INCUBATOR_WARNING)) {
                        sink.println(line);
                    }
                }
            } catch (IOException ignored) {
                // the child closed its stream: nothing more to copy
            }
        }, "jmh-run-stderr");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }
}
