package membound.vocabulary;

/** A level of the memory hierarchy a working set lives in. {@code SLC} is a memory-side (system-level) cache such as the DGX Spark's 16 MB one. */
public enum MemoryLevel implements Labelled {
    L1(1),
    L2(2),
    L3(3),
    SLC(4),
    DRAM(0);

    private final int cacheLevel;

    MemoryLevel(int cacheLevel) {
        this.cacheLevel = cacheLevel;
    }

    /** {@code L1}, {@code DRAM}: as JSON and tables write it. */
    @Override
    public String label() {
        return name();
    }

    /** The cache level number the operating system reports for it (sysfs {@code cache/indexN/level}); 0 for DRAM. */
    public int cacheLevel() {
        return cacheLevel;
    }


    @Override
    public String toString() {
        return label();
    }
}
