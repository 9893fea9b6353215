package membound.hardware.host;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import membound.vocabulary.BadInputException;

/**
 * The view of the system that {@link HostDetector} reads: a root directory laid out as {@code /} is
 * ({@code proc/cpuinfo}, {@code sys/devices/system/cpu/...}), the text of {@code getconf -a}, and what the
 * JVM knows. {@link #live()} is the running machine; {@link #fixture(Path)} is a recorded or written tree,
 * which holds {@code getconf -a} as {@code getconf-a.txt} and the JVM's facts as {@code java.properties}.
 */
public final class SystemFiles {

    /** Fixture file holding the output of {@code getconf -a}. */
    public static final String GETCONF_FILE = "getconf-a.txt";
    /** Fixture file holding the JVM's facts (system property keys, plus {@code availableProcessors}). */
    public static final String JAVA_FILE = "java.properties";

    // cpuinfo on a many-core machine is a few hundred KiB; anything far larger is not a system file.
    private static final long MAX_FILE_BYTES = 16L << 20;
    private static final Pattern TRAILING_NUMBER = Pattern.compile("(\\d+)$");

    private final Path root;
    private final Optional<String> getconfText;
    private final JavaFacts java;

    public SystemFiles(Path root, Optional<String> getconfText, JavaFacts java) {
        if (root == null) {
            throw new BadInputException("root must be given: root=null");
        }
        this.root = root;
        this.getconfText = getconfText == null ? Optional.empty() : getconfText;
        this.java = java == null ? JavaFacts.live() : java;
    }

    /** The running machine: {@code /}, {@code getconf -a} if it runs within a few seconds, the JVM's facts. */
    public static SystemFiles live() {
        return new SystemFiles(Path.of("/"), runGetconf(), JavaFacts.live());
    }

    /** A recorded tree, such as the test fixtures under {@code hosts/<name>/}. */
    public static SystemFiles fixture(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new BadInputException("host fixture must be a directory: dir=" + dir);
        }
        Optional<String> getconf = readText(dir.resolve(GETCONF_FILE));
        Path javaFile = dir.resolve(JAVA_FILE);
        JavaFacts facts = new JavaFacts(null, null, null, null, null, null, 0);
        Optional<String> javaText = readText(javaFile);
        if (javaText.isPresent()) {
            Properties p = new Properties();
            try (Reader r = new java.io.StringReader(javaText.get())) {
                p.load(r);
            } catch (IOException | IllegalArgumentException e) {
                throw new BadInputException("java.properties must be a properties file: file=" + javaFile, e);
            }
            facts = JavaFacts.fromProperties(p, javaFile.toString());
        }
        return new SystemFiles(dir, getconf, facts);
    }

    public Path root() {
        return root;
    }

    public Optional<String> getconfText() {
        return getconfText;
    }

    public JavaFacts java() {
        return java;
    }

    /** The text of a file under the root, such as {@code proc/cpuinfo}; empty if it is absent or unreadable. */
    public Optional<String> read(String relativePath) {
        return readText(root.resolve(relativePath));
    }

    /** A file's text with surrounding white space removed; empty if absent, unreadable or blank. */
    public Optional<String> readTrimmed(String relativePath) {
        return read(relativePath).map(String::trim).filter(s -> !s.isEmpty());
    }

    /**
     * The entries of a directory whose names are {@code prefix} followed by a number ({@code cpu0},
     * {@code index3}, {@code node1}), in numeric order, as paths relative to the root.
     */
    public List<String> numbered(String relativeDir, String prefix) {
        Path dir = root.resolve(relativeDir);
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        Pattern name = Pattern.compile(Pattern.quote(prefix) + "\\d+");
        List<String> found = new ArrayList<>();
        try (Stream<Path> entries = Files.list(dir)) {
            entries.map(p -> p.getFileName().toString()).filter(n -> name.matcher(n).matches()).forEach(found::add);
        } catch (IOException e) {
            return List.of();
        }
        found.sort(Comparator.comparingLong(SystemFiles::trailingNumber));
        return found.stream().map(n -> relativeDir + "/" + n).toList();
    }

    static long trailingNumber(String name) {
        Matcher m = TRAILING_NUMBER.matcher(name);
        if (!m.find()) {
            return Long.MAX_VALUE;
        }
        try {
            return Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE;
        }
    }

    private static Optional<String> readText(Path file) {
        try {
            if (!Files.isRegularFile(file) || Files.size(file) > MAX_FILE_BYTES) {
                return Optional.empty();
            }
            return Optional.of(new String(Files.readAllBytes(file), StandardCharsets.UTF_8));
        } catch (IOException | SecurityException e) {
            // sysfs files may refuse to be read (EINVAL, EPERM): treated as absent, detection says so.
            return Optional.empty();
        }
    }

    private static Optional<String> runGetconf() {
        Process process = null;
        try {
            process = new ProcessBuilder("getconf", "-a").redirectErrorStream(false)
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            process.getOutputStream().close();
            byte[] out = process.getInputStream().readAllBytes();
            if (!process.waitFor(5, TimeUnit.SECONDS) || process.exitValue() != 0) {
                return Optional.empty();
            }
            return Optional.of(new String(out, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } finally {
            if (process != null) {
                process.destroy();
            }
        }
    }
}
