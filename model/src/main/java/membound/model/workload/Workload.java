package membound.model.workload;

/** What is trained or run: a decoder-only transformer or a plain MLP. */
public sealed interface Workload permits Transformer, Mlp {

    /** Short name, as a preset is called or as a config file names the model. */
    String name();

    /** Where the architecture came from (a Hugging Face config.json URL or file, or "command line"). */
    String source();

    ParameterCounts parameters();
}
