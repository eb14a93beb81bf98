mod tools {
    toolsmith::tools!(tools_json);
}

fn main() {}
