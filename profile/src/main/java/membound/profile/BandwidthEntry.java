package membound.profile;

import membound.vocabulary.MemoryLevel;

/**
 * One bandwidth measurement: a kernel over a working set with a number of threads.
 *
 * <p>Bytes are counted two ways (DESIGN.md): {@code streamBytesPerSecond} counts what the code reads
 * and writes (STREAM's convention: copy and scale 2 arrays, add and triad 3, dot 2, nstream 4);
 * {@code hardwareBytesPerSecond} adds the read of each stored line that write-allocate caches do
 * (copy and scale ×1.5, add and triad ×4/3). It is absent where the write policy is unknown
 * (most imported figures).
 *
 * @param id              unique within the device; level ceilings point to it
 * @param kernel          STREAM name of the kernel: copy, scale, add, triad, dot, nstream, read, write, ...
 * @param elementType     "double", "float", ...
 * @param threads         threads (CPU), absent where the tool does not say (GPU, OpenMP default)
 * @param placement       the cores used: "all", a core type ("Cortex-X925"), "spread", ...; absent if unknown
 * @param workingSetBytes bytes of all arrays the kernel touches, all threads together, if known
 * @param level           the memory level the working set lives in
 * @param streamBytesPerSecond   bytes the code moves per second
 * @param hardwareBytesPerSecond bytes the memory moves per second with write-allocate, if known
 * @param provenance      how it was measured or where it was imported from
 */
public record BandwidthEntry(
        String id,
        String kernel,
        String elementType,
        Integer threads,
        String placement,
        Long workingSetBytes,
        MemoryLevel level,
        Distribution streamBytesPerSecond,
        Distribution hardwareBytesPerSecond,
        Provenance provenance) {

    public BandwidthEntry {
        Checks.id("bandwidth.id", id);
        Checks.id("bandwidth.kernel", kernel);
        Checks.text("bandwidth.elementType", elementType);
        Checks.optionalPositive("bandwidth.threads", threads);
        Checks.optionalText("bandwidth.placement", placement);
        Checks.optionalPositive("bandwidth.workingSetBytes", workingSetBytes);
        Checks.present("bandwidth.level", level);
        Checks.present("bandwidth.streamBytesPerSecond", streamBytesPerSecond);
        Checks.present("bandwidth.provenance", provenance);
    }
}
