package membound.profile;

/**
 * One point of the sharing curve of a memory the CPU and the GPU share (DGX Spark's GB10, GH200): one side's Triad
 * while the other side streams Triad from the same memory.
 *
 * @param measured            the device measured: {@code gpu} (while {@code cpuThreadsStreaming} CPU threads
 *                            stream) or {@code cpu} (on {@code cpuThreadsStreaming} threads, while the GPU streams)
 * @param kernel              the kernel both sides ran
 * @param elementType         "double"
 * @param cpuThreadsStreaming CPU threads streaming (0 for the GPU alone)
 * @param gpuStreaming        whether the GPU streamed while the CPU was measured
 * @param streamBytesPerSecond the measured side's STREAM bytes per second, every sample kept
 * @param provenance          how it was measured
 */
public record SharingEntry(String measured, String kernel, String elementType, int cpuThreadsStreaming,
                           boolean gpuStreaming, Distribution streamBytesPerSecond, Provenance provenance) {

    public SharingEntry {
        Checks.id("sharing.measured", measured);
        Checks.id("sharing.kernel", kernel);
        Checks.text("sharing.elementType", elementType);
        if (cpuThreadsStreaming < 0) {
            throw Checks.bad("sharing.cpuThreadsStreaming", "0 or more", cpuThreadsStreaming);
        }
        Checks.present("sharing.streamBytesPerSecond", streamBytesPerSecond);
        Checks.present("sharing.provenance", provenance);
    }
}
