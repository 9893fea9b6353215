package membound.profile;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;

/**
 * Reads an optional statistic: a number, or JMH's {@code "NaN"} string, which means "not known" and
 * reads as absent. Any other string is an error. Used only on the fields the schema documents.
 */
final class NanAsAbsent extends StdDeserializer<Double> {

    private static final long serialVersionUID = 1L;

    NanAsAbsent() {
        super(Double.class);
    }

    @Override
    public Double deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
        if (p.currentToken() == JsonToken.VALUE_STRING && "NaN".equals(p.getText())) {
            return null;
        }
        if (p.currentToken() == JsonToken.VALUE_NUMBER_INT || p.currentToken() == JsonToken.VALUE_NUMBER_FLOAT) {
            return p.getDoubleValue();
        }
        return (Double) ctxt.handleUnexpectedToken(Double.class, p);
    }
}
