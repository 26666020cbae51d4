# decant's HTTP service. The build stage installs and builds exactly as .ci/run does natively.
FROM golang:1.26-bookworm AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends libopencv-dev pkg-config \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# decant solves level files without OpenCV and hands images to decant-vision beside it, and
# labelling from or to buckets to decant-label (the only build with the bucket drivers).
RUN CGO_ENABLED=0 go build -trimpath -tags novision -o /out/decant ./cmd/decant \
 && go build -trimpath -tags nobuckets -o /out/decant-vision ./cmd/decant \
 && go build -trimpath -o /out/decant-label ./cmd/decant

# Runtime: only the OpenCV libraries decant-vision links (objdump -p decant-vision | grep NEEDED).
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      libopencv-core406 libopencv-imgproc406 libopencv-imgcodecs406 libopencv-highgui406 \
      libopencv-videoio406 libopencv-video406 libopencv-objdetect406 libopencv-features2d406 \
      libopencv-calib3d406 libopencv-dnn406 libopencv-photo406 \
      ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --no-create-home decant
COPY --from=build /out/decant /out/decant-vision /out/decant-label /usr/local/bin/
USER decant
# The service's memory budget in MiB (uploads in flight, decoded screenshots, searches: work is
# admitted against it) and the Go heap's limit, as "decant serve" would set it: three quarters
# of the budget less its 192 MiB reserve. Give the container about 256 MiB more than the budget.
ENV DECANT_MEMORY_BUDGET=768 GOMEMLIMIT=432MiB
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=5s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/8080 && printf 'GET /healthz HTTP/1.0\\r\\n\\r\\n' >&3 && grep -q '\"ok\"' <&3"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["decant"]
CMD ["serve", "--addr", ":8080"]
