package membound.hardware.host;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** The host trees under {@code src/test/resources/hosts/}, and copies of them to break. */
public final class Fixtures {

    private Fixtures() {
    }

    public static Path dir(String name) {
        URL url = Fixtures.class.getResource("/hosts/" + name);
        if (url == null) {
            throw new IllegalArgumentException("no fixture hosts/" + name);
        }
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    public static Host detect(String name) {
        return HostDetector.detect(SystemFiles.fixture(dir(name)));
    }

    /** Copies a fixture into {@code target} so a test can change or delete its files. */
    public static Path copy(String name, Path target) {
        Path source = dir(name);
        try (Stream<Path> paths = Files.walk(source)) {
            for (Path p : (Iterable<Path>) paths::iterator) {
                Path to = target.resolve(source.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(p, to);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return target;
    }

    /** Writes one file of a host tree under {@code root}, such as {@code proc/cpuinfo}, with its directories. */
    public static void write(Path root, String relative, String text) {
        Path file = root.resolve(relative);
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
