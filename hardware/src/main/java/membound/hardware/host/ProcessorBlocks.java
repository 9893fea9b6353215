package membound.hardware.host;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import membound.vocabulary.BadInputException;

/**
 * The processor blocks of {@code /proc/cpuinfo} as key/value maps, keys as the kernel spells them: in file
 * order, and by cpu number (where a number repeats, the later block is that cpu's).
 */
final class ProcessorBlocks {

    private final List<Map<String, String>> blocks;
    private final Map<Integer, Map<String, String>> byCpu;

    /** @param blocks each with a {@code processor} key holding its cpu number */
    ProcessorBlocks(List<Map<String, String>> blocks) {
        this.blocks = blocks.stream().map(b -> Collections.unmodifiableMap(new LinkedHashMap<>(b))).toList();
        Map<Integer, Map<String, String>> numbered = new TreeMap<>();
        for (Map<String, String> block : this.blocks) {
            String processor = block.get("processor");
            Integer cpu = processor == null ? null : FileNumbers.parseInt(processor).orElse(null);
            if (cpu == null) {
                throw new BadInputException("cpuinfo block must have a processor number: processor="
                        + processor);
            }
            numbered.put(cpu, block);
        }
        this.byCpu = Collections.unmodifiableMap(numbered);
    }

    /** The blocks in file order. */
    List<Map<String, String>> blocks() {
        return blocks;
    }

    /** The block of each cpu number, in cpu order. */
    Map<Integer, Map<String, String>> byCpu() {
        return byCpu;
    }

    /** One key of one cpu's block; null where the cpu has no block or the block no such key. */
    String field(int cpu, String key) {
        return byCpu.getOrDefault(cpu, Map.of()).get(key);
    }
}
