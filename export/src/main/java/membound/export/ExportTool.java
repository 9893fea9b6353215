package membound.export;

import membound.vocabulary.Labelled;

/**
 * An estimator membound writes hardware files for, with the commit of its source that every mapping in
 * {@code docs/export.md} was read from: a later release may read other keys, and the export says which one it
 * was made for.
 */
public enum ExportTool implements Labelled {
    /** One GPU file ({@code GPUConfig}) and the efficiency flags of its command line. */
    LLM_ANALYSIS("llm-analysis", "cli99/llm-analysis", "d841e40aec8c84b9e76ba9cfbce67418adb172bd", false),
    /** One system file with size-dependent efficiency tables and network tiers. */
    CALCULON("calculon", "calculon-ai/calculon", "caa4b11f8fe1fee3ba57adaacb7590d7deabd053", false),
    /** One system dictionary as {@code get_inference_system} reads it ({@code real_values}). */
    GENZ("genz", "abhibambhaniya/GenZ-LLM-Analyzer", "091bdd0a2777dfe4d405a8fcdd91c8f12b474bf3", false),
    /**
     * A directory: the analytical network backend's {@code network.yml} (read by astra-network-analytical at
     * {@link #ASTRA_NETWORK_COMMIT}), the system and remote-memory JSON.
     */
    ASTRA_SIM("astra-sim", "astra-sim/astra-sim", "518bd513ae110428cd62eb60efc0f3993fd53c70", true);

    /** The commit of astra-sim/astra-network-analytical whose {@code NetworkParser.cpp} reads network.yml. */
    public static final String ASTRA_NETWORK_COMMIT = "599a0473a9a74f5383f73b3cea5a12b9bc5ebaef";

    private final String label;
    private final String repository;
    private final String commit;
    private final boolean directory;

    ExportTool(String label, String repository, String commit, boolean directory) {
        this.label = label;
        this.repository = repository;
        this.commit = commit;
        this.directory = directory;
    }

    @Override
    public String label() {
        return label;
    }

    /** The GitHub repository ({@code owner/name}) the mapping was read from. */
    public String repository() {
        return repository;
    }

    public String commit() {
        return commit;
    }

    public String url() {
        return "https://github.com/" + repository + "/tree/" + commit;
    }

    /** True where the tool takes several files, written as one directory. */
    public boolean directory() {
        return directory;
    }

    /** {@code llm-analysis}, {@code calculon}, {@code genz}, {@code astra-sim}; a miss lists them. */
    public static ExportTool of(String text) {
        return Labelled.parse(ExportTool.class, "--to", text);
    }

    @Override
    public String toString() {
        return label;
    }
}
