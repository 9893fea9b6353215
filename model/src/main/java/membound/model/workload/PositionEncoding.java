package membound.model.workload;

/** Learned absolute positions (GPT-2: a table of maxPositions x hidden) or rotary (RoPE: no parameters). */
public enum PositionEncoding {
    LEARNED,
    ROTARY
}
