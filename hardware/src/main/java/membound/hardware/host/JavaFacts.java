package membound.hardware.host;

import java.net.InetAddress;
import java.util.Properties;

import membound.vocabulary.BadInputException;

/**
 * What the JVM knows about the host; detection prefers the system files and uses these to fill gaps and
 * to cross-check (the JVM may see fewer cpus than the machine has, under a container or an affinity mask).
 *
 * @param availableProcessors {@code Runtime.availableProcessors()}, 0 where unknown
 */
public record JavaFacts(String hostname, String osName, String osVersion, String osArch, String javaVersion,
                        String javaVendor, int availableProcessors) {

    public JavaFacts {
        hostname = orUnknown(hostname);
        osName = orUnknown(osName);
        osVersion = orUnknown(osVersion);
        osArch = orUnknown(osArch);
        javaVersion = orUnknown(javaVersion);
        javaVendor = orUnknown(javaVendor);
        if (availableProcessors < 0) {
            throw new BadInputException("availableProcessors must not be negative: availableProcessors="
                    + availableProcessors);
        }
    }

    /** The running JVM's facts. The hostname comes from the kernel or environment first: a DNS lookup can stall. */
    public static JavaFacts live() {
        String hostname = null;
        try {
            hostname = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/sys/kernel/hostname")).trim();
        } catch (java.io.IOException | RuntimeException e) {
            hostname = System.getenv("HOSTNAME");
        }
        if (hostname == null || hostname.isBlank()) {
            try {
                hostname = InetAddress.getLocalHost().getHostName();
            } catch (java.io.IOException e) {
                hostname = "unknown";
            }
        }
        return new JavaFacts(hostname, System.getProperty("os.name"), System.getProperty("os.version"),
                System.getProperty("os.arch"), System.getProperty("java.version"), System.getProperty("java.vendor"),
                Runtime.getRuntime().availableProcessors());
    }

    /** Reads a fixture's {@code java.properties} (keys as the system properties, plus {@code availableProcessors}). */
    static JavaFacts fromProperties(Properties p, String where) {
        String cpus = p.getProperty("availableProcessors", "0").trim();
        int available;
        try {
            available = Integer.parseInt(cpus);
        } catch (NumberFormatException e) {
            throw new membound.vocabulary.BadInputException(
                    "availableProcessors must be a whole number: availableProcessors=" + cpus + " (in " + where + ")");
        }
        return new JavaFacts(p.getProperty("hostname"), p.getProperty("os.name"), p.getProperty("os.version"),
                p.getProperty("os.arch"), p.getProperty("java.version"), p.getProperty("java.vendor"),
                Math.max(0, available));
    }

    private static String orUnknown(String value) {
        return value == null || value.isBlank() ? "unknown" : value.trim();
    }
}
