package membound.hardware.host;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** How much memory there is ({@code /proc/meminfo}) and in how many NUMA nodes (sysfs {@code node*}). */
final class MemoryReader {

    static final String MEMINFO = "proc/meminfo";
    static final String NODE_DIR = "sys/devices/system/node";

    private static final Pattern MEMTOTAL = Pattern.compile("(?m)^MemTotal:\\s*(\\S+)\\s*(\\S*)\\s*$");

    private final SystemFiles files;
    private final List<String> warnings;

    /** @param warnings where what could not be read is said, in the order it is found */
    MemoryReader(SystemFiles files, List<String> warnings) {
        this.files = files;
        this.warnings = warnings;
    }

    /** {@code MemTotal} in bytes; 0, with a warning, where it cannot be read. */
    long memoryBytes() {
        Optional<String> text = files.read(MEMINFO);
        if (text.isEmpty()) {
            warnings.add(MEMINFO + " could not be read: memory size unknown");
            return 0;
        }
        Matcher m = MEMTOTAL.matcher(text.get());
        if (!m.find()) {
            warnings.add(MEMINFO + " has no MemTotal line: memory size unknown");
            return 0;
        }
        Optional<Long> kib = FileNumbers.parseLong(m.group(1)).filter(v -> v > 0 && v < Long.MAX_VALUE / 1024);
        if (kib.isEmpty() || !(m.group(2).equalsIgnoreCase("kB") || m.group(2).isEmpty())) {
            warnings.add(MEMINFO + " MemTotal must be a number of kB: MemTotal=" + m.group(1) + " " + m.group(2)
                    + "; memory size unknown");
            return 0;
        }
        return kib.get() * 1024L; // meminfo's "kB" is KiB
    }

    /** The NUMA nodes sysfs lists; one, with a warning, where it lists none. */
    int numaNodes() {
        int nodes = files.numbered(NODE_DIR, "node").size();
        if (nodes == 0) {
            warnings.add("no NUMA nodes under " + NODE_DIR + ": taken as one node");
            return 1;
        }
        return nodes;
    }
}
