package membound.profile;

import com.fasterxml.jackson.annotation.JsonInclude;

import membound.vocabulary.AccessPattern;
import membound.vocabulary.Implementation;
import membound.vocabulary.MemoryLevel;

/**
 * One bandwidth measurement: a kernel over a working set with a number of threads.
 *
 * <p>Bytes are counted two ways (DESIGN.md): {@code streamBytesPerSecond} counts what the code reads
 * and writes (STREAM's convention: copy and scale 2 arrays, add and triad 3, dot 2, nstream 4);
 * {@code hardwareBytesPerSecond} counts what the memory moved: where the CPU's stores allocate it adds the read
 * of each stored line (copy and scale ×1.5, add and triad ×4/3, fill ×2), where they do not it is the STREAM
 * figure; the device's {@link WriteAllocation} says which (measured, or assumed). It is absent where the write
 * policy is unknown (imported figures, GPUs).
 *
 * @param id              unique within the device; level ceilings point to it
 * @param kernel          STREAM name of the kernel: copy, scale, add, triad, dot, nstream, read, write, ...
 * @param pattern         the access pattern the kernel's figure stands for, by the kernel table (copy for Copy and
 *                        Scale, triad for Add and Triad, ...); absent for a kernel that stands for none
 * @param standsIn        true where the kernel only stands in for its pattern (Scale for Copy, Add for Triad, Dot for
 *                        read) rather than defining it; absent (false) otherwise
 * @param elementType     "double", "float", ... (the tool's word: an imported figure may be "half" or "2-byte")
 * @param implementation  which code measured it: membound's Vector API kernel or its scalar twin, the GPU suite's PTX
 *                        kernel on device or on host memory, another tool, or nothing said
 * @param threads         threads (CPU), absent where the tool does not say (GPU, OpenMP default)
 * @param placement       the cores used: "all", a core type ("Cortex-X925"), "spread", ...; absent if unknown
 * @param workingSetBytes bytes of all arrays the kernel touches, all threads together, if known
 * @param level           the memory level the working set lives in
 * @param streamBytesPerSecond   bytes the code moves per second
 * @param hardwareBytesPerSecond bytes the memory moves per second, as the device's write-allocation counts them, if known
 * @param provenance      how it was measured or where it was imported from
 */
public record BandwidthEntry(
        String id,
        String kernel,
        @JsonInclude(JsonInclude.Include.NON_NULL) AccessPattern pattern,
        @JsonInclude(JsonInclude.Include.NON_NULL) Boolean standsIn,
        String elementType,
        Implementation implementation,
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
        if (Boolean.FALSE.equals(standsIn)) {
            standsIn = null;
        }
        if (standsIn != null && pattern == null) {
            throw Checks.bad("bandwidth.standsIn", "given only with a pattern (bandwidth " + id + " has none)", standsIn);
        }
        Checks.text("bandwidth.elementType", elementType);
        Checks.present("bandwidth.implementation", implementation);
        Checks.optionalPositive("bandwidth.threads", threads);
        Checks.optionalText("bandwidth.placement", placement);
        Checks.optionalPositive("bandwidth.workingSetBytes", workingSetBytes);
        Checks.present("bandwidth.level", level);
        Checks.present("bandwidth.streamBytesPerSecond", streamBytesPerSecond);
        Checks.present("bandwidth.provenance", provenance);
    }

    /** Whether the kernel defines the pattern it stands for (Copy, Triad, Sum, Fill) rather than standing in for it. */
    public boolean definesPattern() {
        return pattern != null && standsIn == null;
    }
}
